import os from 'node:os';
import type mongoose from 'mongoose';

/**
 * Options every MongoDB connection of the project passes to the driver. The driver loads `os` with
 * a dynamic `import()` to describe itself in the connection handshake; where that import fails
 * (jest runs tests in a vm context that has no dynamic import unless node runs with
 * --experimental-vm-modules) it quietly sends empty client metadata, which MongoDB and SecantusDB
 * refuse, so every connection attempt fails until server selection times out. Handing the driver
 * `os` itself skips the import everywhere.
 */
export const mongoDriverOptions = {
  runtimeAdapters: { os },
} satisfies mongoose.mongo.MongoClientOptions;

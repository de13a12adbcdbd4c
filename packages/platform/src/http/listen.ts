import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long requests in flight may take to finish when a server closes, before their connections are cut. */
const requestDrainMs = 3000;

/** Listens and resolves with the port it got (0 asks for any free one); rejects when the port is taken. */
export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops taking connections, closes the idle ones, and gives requests in flight a moment to finish. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), requestDrainMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

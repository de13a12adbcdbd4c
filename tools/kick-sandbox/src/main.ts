import path from 'node:path';
import { loadConfigOrExit } from '@kickstand/platform/config';
import { startHttpService, isPrettyLogging, runProcess } from '@kickstand/platform/lifecycle';
import { createLogger } from '@kickstand/platform/log';
import { createEmbeddedStore, createMongoStore } from '@kickstand/platform/store';
import { kickSandboxConfigSchema, kickSandboxOptionsFromSettings } from './config';
import { createKickSandbox } from './service';

const service = 'kick-sandbox';
const config = loadConfigOrExit(kickSandboxConfigSchema, service);
const log = createLogger({ level: config.LOG_LEVEL, pretty: isPrettyLogging(config) }).child({ service });

runProcess({
  log,
  start: async () => {
    // The store is chosen as connectPlatform chooses it; the sandbox needs no bus, so it opens no Kafka connection.
    const store = config.MONGO_URL
      ? await createMongoStore({ url: config.MONGO_URL, dbName: `${config.MONGO_DB_PREFIX}${service}`, log })
      : await createEmbeddedStore({ dir: path.resolve(config.DATA_DIR, service), log });
    try {
      const running = await startHttpService(
        createKickSandbox({ log, store }, kickSandboxOptionsFromSettings(config, config.PORT)),
        { port: config.PORT },
      );
      log.info({ port: running.port }, 'kick sandbox listening');
      return async () => {
        await running.stop();
        await store.close();
      };
    } catch (error) {
      await store.close();
      throw error;
    }
  },
});

import { loadConfigOrExit } from '@kickstand/platform/config';
import { startHttpService, isPrettyLogging, runProcess } from '@kickstand/platform/lifecycle';
import { createLogger } from '@kickstand/platform/log';
import { kickSandboxConfigSchema } from './config';
import { createKickSandbox } from './service';

const config = loadConfigOrExit(kickSandboxConfigSchema, 'kick-sandbox');
const log = createLogger({ level: config.LOG_LEVEL, pretty: isPrettyLogging(config) }).child({
  service: 'kick-sandbox',
});
runProcess({
  log,
  start: async () => {
    const running = await startHttpService(createKickSandbox({ log }), { port: config.PORT });
    log.info({ port: running.port }, 'kick sandbox listening');
    return running.stop;
  },
});

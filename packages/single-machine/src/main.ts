import { loadConfigOrExit } from '@kickstand/platform/config';
import { isPrettyLogging, runProcess } from '@kickstand/platform/lifecycle';
import { createLogger } from '@kickstand/platform/log';
import { singleMachineConfigSchema } from './config';
import { startSingleMachine } from './single-machine';

const config = loadConfigOrExit(singleMachineConfigSchema, 'kickstand');
const log = createLogger({ level: config.LOG_LEVEL, pretty: isPrettyLogging(config) });
runProcess({
  log,
  start: async () => {
    const kickstand = await startSingleMachine(config, log);
    log.info({ ports: kickstand.ports }, 'all services started');
    // The one line a newcomer needs; printed plainly so it stands out from the log.
    console.log(`\n  Kickstand is running: open ${kickstand.url}\n  (Ctrl-C stops it)\n`);
    return kickstand.stop;
  },
});

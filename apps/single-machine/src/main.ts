import { loadConfigOrExit } from '@kickstand/platform/config';
import { isPrettyLogging, runProcess } from '@kickstand/platform/lifecycle';
import { createLogger, startMemoryLog } from '@kickstand/platform/log';
import { singleMachineConfigSchema } from './config';
import { applyHeapSettings } from './heap-settings';
import { startSingleMachine } from './single-machine';

const config = loadConfigOrExit(singleMachineConfigSchema, 'kickstand');
applyHeapSettings(config);
const log = createLogger({ level: config.LOG_LEVEL, pretty: isPrettyLogging(config) });
if (config.MEMORY_LOG_INTERVAL_MS !== undefined)
  startMemoryLog(log.child({ thread: 'owner' }), config.MEMORY_LOG_INTERVAL_MS);
runProcess({
  log,
  start: async () => {
    const kickstand = await startSingleMachine(config, log);
    log.info({ ports: kickstand.ports }, 'all services started');
    // The one line a newcomer needs; printed plainly so it stands out from the log.
    const sandboxPort = kickstand.ports['kick-sandbox'];
    const kick =
      sandboxPort === undefined
        ? '  Kick: the real one (KICK_CLIENT_ID is set)'
        : `  Kick: no Kick credentials set, so the local Kick sandbox stands in for it.\n        Chat as a viewer at http://localhost:${sandboxPort}/sandbox`;
    console.log(`\n  Kickstand is running: open ${kickstand.url}\n${kick}\n  (Ctrl-C stops it)\n`);
    return kickstand.stop;
  },
});

import { z } from 'zod';
import { authSettingsSchema } from '@kickstand/auth';
import { botRunnerSettingsSchema } from '@kickstand/bot-runner';
import { gatewaySettingsSchema } from '@kickstand/gateway';
import { kickLinkSettingsSchema } from '@kickstand/kick-link';
import { kickSandboxSettingsSchema } from '@kickstand/kick-sandbox';
import {
  blankAsUnset,
  defaultPorts,
  jwtPrivateKeySchema,
  optionalString,
  platformConfigSchema,
  portSchema,
} from '@kickstand/platform/config';

export const singleMachineConfigSchema = platformConfigSchema
  .extend(kickSandboxSettingsSchema.shape)
  .extend(authSettingsSchema.shape)
  .extend(kickLinkSettingsSchema.shape)
  .extend(gatewaySettingsSchema.shape)
  .extend(botRunnerSettingsSchema.shape)
  .extend({
    /** The gateway: the one URL a person opens. */
    PORT: portSchema.default(defaultPorts.gateway),
    HOST: z.string().min(1).default('127.0.0.1'),
    WEB_DIST_DIR: z.string().min(1).default('web/dist'),
    AUTH_PORT: portSchema.default(defaultPorts.auth),
    COMMANDS_PORT: portSchema.default(defaultPorts.commands),
    KICK_LINK_PORT: portSchema.default(defaultPorts['kick-link']),
    BOT_RUNNER_PORT: portSchema.default(defaultPorts['bot-runner']),
    GAMES_PORT: portSchema.default(defaultPorts.games),
    REALTIME_PORT: portSchema.default(defaultPorts.realtime),
    KICK_SANDBOX_PORT: portSchema.default(defaultPorts['kick-sandbox']),
    /** With Kick credentials the product talks to real Kick; without them the bundled sandbox starts. */
    KICK_CLIENT_ID: optionalString(),
    /**
     * `thread` (default): the public port, Kick's webhook checks and socket.io's proxying run in a
     * second thread, the front door (docs/decisions/single-machine-two-cores.md); `inline`: all in
     * this one thread, as before.
     */
    FRONT_DOOR: z.enum(['thread', 'inline']).default('thread'),
    /**
     * The old generation of each V8 heap (both threads) is collected once it has grown by this
     * many percent over what survived the last full collection; 0: V8's own heuristic, which lets
     * it grow up to 4 times (heap-settings.ts). Lower: less memory, more CPU on collections, and
     * more of the owner thread's marking pauses (50: a full collection of the owner about every
     * 34 s at 1,000 msg/s, so that a 30 s window rarely holds two, within issue 22's 300 MB;
     * docs/performance.md, "One full collection a window").
     */
    HEAP_GROWING_PERCENT: blankAsUnset(z.coerce.number().int().min(0).max(300).default(50)),
    /**
     * A debugging aid: each thread logs its V8 heap (per space) and the process's resident set this
     * often ("memory" lines). Unset: never.
     */
    MEMORY_LOG_INTERVAL_MS: blankAsUnset(z.coerce.number().int().min(100).max(3_600_000).optional()),
    /**
     * With FRONT_DOOR=thread: how many webhook deliveries the front door may have answered 200 and
     * handed to the owner thread before it has finished them; at that many, Kick gets 503 +
     * Retry-After until the owner catches up. Default 5000 (about 5 s of chat at 1,000 a second,
     * a few MB of bodies).
     */
    FRONT_DOOR_MAX_UNFINISHED: blankAsUnset(
      z.coerce
        .number({ error: 'a whole number of deliveries from 1 to 1000000' })
        .int('a whole number of deliveries from 1 to 1000000')
        .min(1, 'a whole number of deliveries from 1 to 1000000')
        .max(1_000_000, 'a whole number of deliveries from 1 to 1000000')
        .default(5000),
    ),
    /** With JWT_PUBLIC_KEY: auth's signing key; without both, a key pair is made once under DATA_DIR/keys. */
    JWT_PRIVATE_KEY: jwtPrivateKeySchema,
  });

export type SingleMachineConfig = z.infer<typeof singleMachineConfigSchema>;

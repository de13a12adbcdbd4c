import { z } from 'zod';
import {
  blankAsUnset,
  defaultPorts,
  optionalString,
  platformConfigSchema,
  portSchema,
} from '@kickstand/platform/config';

/**
 * Settings single-machine passes on too. TIMER_MINUTE_MS is for the sandbox's e2e runs only: how
 * long a timer's "minute" is, so a timer of 5 minutes (the shortest a streamer may set) posts
 * within seconds. The streamer's limits stay as they are; with NODE_ENV=production it is refused.
 */
export const botRunnerSettingsSchema = z.object({
  TIMER_MINUTE_MS: blankAsUnset(z.coerce.number().int().min(100).max(60_000).optional()),
});

export const botRunnerConfigSchema = platformConfigSchema.extend(botRunnerSettingsSchema.shape).extend({
  PORT: portSchema.default(defaultPorts['bot-runner']),
  /**
   * Names this instance's bot.status group (`bot-runner.instance.<INSTANCE_ID>`): must differ between running
   * instances (the pod name on Kubernetes). Unset: a random id per start.
   */
  INSTANCE_ID: optionalString().pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dots, hyphens and underscores only')
      .optional(),
  ),
});

export type BotRunnerConfig = z.infer<typeof botRunnerConfigSchema>;

/** The timer minute to use: TIMER_MINUTE_MS outside production, else none (60 s). Throws when production sets it. */
export function timerMinuteMsOf(config: { NODE_ENV: string; TIMER_MINUTE_MS?: number | undefined }): {
  timerMinuteMs?: number;
} {
  if (config.TIMER_MINUTE_MS === undefined) return {};
  if (config.NODE_ENV === 'production') {
    throw new Error('TIMER_MINUTE_MS is for the sandbox and tests only; unset it in production');
  }
  return { timerMinuteMs: config.TIMER_MINUTE_MS };
}

import { z } from 'zod';
import { dataReply, isoDateTime } from './common';

// Issue 19 item 10: how often each of the streamer's commands ran (commands, from command.executed).

export const commandStatsSchema = z
  .object({
    /** The command's name in lower case, as commandKey gives it. */
    command: z.string(),
    /** Runs in the current hour and the 23 before it. */
    last24Hours: z.number().int(),
    /** Runs in the current hour and the 167 before it. */
    last7Days: z.number().int(),
    /** The last run; null when it never ran (or not since usage is counted). */
    lastUsedAt: isoDateTime().nullable(),
  })
  .meta({ title: 'CommandStats' });
export type CommandStats = z.infer<typeof commandStatsSchema>;

/** One entry per command the streamer has now, in no particular order. */
export const commandStatsReplySchema = dataReply(z.array(commandStatsSchema));

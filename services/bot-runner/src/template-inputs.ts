import { counterChanges, usesStream, type StreamState } from '@kickstand/chat-language';
import type { Clock } from '@kickstand/platform/clock';
import type { ChannelsRepository } from './channels';
import type { CountersRepository } from './counters';

/**
 * What a response needs beyond the chat line, read (and, for `{counter:name+1}`, changed) in the
 * store only when the response uses it: the counters after this line's changes (applied once per
 * chat line, counters.ts) and the channel's stream.
 */
export interface TemplateInputs {
  counters: ReadonlyMap<string, number>;
  stream?: StreamState;
  nowMs: number;
}

export interface TemplateInputDeps {
  counters: CountersRepository;
  channels: ChannelsRepository;
  clock: Clock;
}

export async function resolveTemplateInputs(
  deps: TemplateInputDeps,
  line: { ownerUserId: string; broadcasterUserId: string; messageId: string },
  template: string,
): Promise<TemplateInputs> {
  const now = deps.clock.now();
  const changes = counterChanges(template);
  const counters =
    changes.length === 0
      ? new Map<string, number>()
      : await deps.counters.apply(line.ownerUserId, line.messageId, changes, now);
  if (!usesStream(template)) return { counters, nowMs: now.getTime() };
  // no livestream event about this channel yet: it has not been live since Kickstand listens
  const stream = (await deps.channels.stream(line.ownerUserId, line.broadcasterUserId)) ?? {
    isLive: false,
    startedAtMs: null,
    title: '',
    game: '',
  };
  return { counters, stream, nowMs: now.getTime() };
}

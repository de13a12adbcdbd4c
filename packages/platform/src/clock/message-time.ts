/**
 * When a chat message was sent, by the viewer's clock: Kick's `created_at`, bounded by when our
 * webhook received it. Cooldowns are judged on this time rather than on when a service gets to the
 * message, so a backlog (after an outage, a restart, a slow consumer) answers every command a
 * viewer could have seen answered, and refuses the same ones as without the backlog.
 *
 * The bounds keep a wrong clock from deciding: a message cannot be sent after it arrived, and one
 * that claims to be older than `maxSkewMs` before its arrival is taken as sent at that bound, so a
 * clock far behind cannot dodge a cooldown.
 *
 * Kick writes created_at to the second (kick-api.md §8): a 1 s cooldown judged on whole seconds
 * would let two lines 0.2 s apart across a second boundary both be answered. When the arrival
 * falls within created_at's second (the usual case: Kick delivers in well under a second), the
 * arrival is the closer time, so it is taken; only a delivery late by a second or more is judged
 * on the whole second.
 */

/** How far before its arrival a message's own time is believed. */
export const messageTimeMaxSkewMs = 5 * 60_000;

export interface MessageTimes {
  /** Kick's created_at (epoch ms); undefined when the delivery had none or it was unreadable. */
  createdAtMs: number | undefined;
  /** When the webhook received the delivery (epoch ms); undefined for an event without it. */
  receivedAtMs: number | undefined;
  /** The processing time: the arrival when nothing says when the message arrived. */
  nowMs: number;
}

export function messageTimeMs(times: MessageTimes, maxSkewMs = messageTimeMaxSkewMs): number {
  const arrivalMs = isTime(times.receivedAtMs) ? times.receivedAtMs : times.nowMs;
  const createdAtMs = times.createdAtMs;
  if (!isTime(createdAtMs)) return arrivalMs;
  if (createdAtMs % 1000 === 0 && arrivalMs >= createdAtMs && arrivalMs < createdAtMs + 1000) return arrivalMs;
  return Math.min(arrivalMs, Math.max(createdAtMs, arrivalMs - maxSkewMs));
}

/** A protobuf Timestamp that was never set decodes as 0: no time, not 1970. */
function isTime(ms: number | undefined): ms is number {
  return ms !== undefined && Number.isFinite(ms) && ms > 0;
}

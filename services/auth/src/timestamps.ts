import type { UserChanged } from '@kickstand/proto';

type Timestamp = NonNullable<UserChanged['occurredAt']>;

/** A protobuf Timestamp as a Date; a message without one counts as older than anything (the epoch). */
export function dateOf(timestamp: Timestamp | undefined): Date {
  if (!timestamp) return new Date(0);
  return new Date(Number(timestamp.seconds) * 1000 + Math.floor(timestamp.nanos / 1_000_000));
}

/** A Date as the init shape of a protobuf Timestamp. */
export function timestampOf(date: Date): { seconds: bigint; nanos: number } {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
}

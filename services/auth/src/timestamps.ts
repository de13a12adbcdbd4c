import { timestampDate, type Timestamp } from '@kickstand/proto';

/** A protobuf Timestamp as a Date; a message without one counts as older than anything (the epoch). */
export function dateOf(timestamp: Timestamp | undefined): Date {
  return timestamp ? timestampDate(timestamp) : new Date(0);
}

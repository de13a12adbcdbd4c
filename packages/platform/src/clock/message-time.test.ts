import { messageTimeMaxSkewMs, messageTimeMs } from './message-time';

const arrival = Date.UTC(2026, 10, 25, 18, 0, 0);
const later = arrival + 60_000;

describe('messageTimeMs', () => {
  it('when Kick says when the message was sent, then that time counts, not the processing time', () => {
    expect(messageTimeMs({ createdAtMs: arrival - 2_500, receivedAtMs: arrival, nowMs: later })).toBe(arrival - 2_500);
  });

  it('when created_at is a whole second and the arrival falls within that second, then the arrival counts (the closer time)', () => {
    expect(messageTimeMs({ createdAtMs: arrival, receivedAtMs: arrival + 900, nowMs: later })).toBe(arrival + 900);
    expect(messageTimeMs({ createdAtMs: arrival, receivedAtMs: arrival + 1000, nowMs: later })).toBe(arrival);
  });

  it('when created_at is after the arrival (a clock ahead), then the arrival counts', () => {
    expect(messageTimeMs({ createdAtMs: arrival + 90_000, receivedAtMs: arrival, nowMs: later })).toBe(arrival);
  });

  it('when created_at is more than 5 minutes before the arrival (a clock behind), then 5 minutes before the arrival counts', () => {
    expect(messageTimeMaxSkewMs).toBe(300_000);
    expect(messageTimeMs({ createdAtMs: arrival - 3_600_000, receivedAtMs: arrival, nowMs: later })).toBe(
      arrival - 300_000,
    );
  });

  it('when created_at is exactly 5 minutes before the arrival, then it counts as it is', () => {
    expect(messageTimeMs({ createdAtMs: arrival - 300_000, receivedAtMs: arrival, nowMs: later })).toBe(
      arrival - 300_000,
    );
  });

  it('when there is no created_at (or it is the unset timestamp 0), then the arrival counts', () => {
    expect(messageTimeMs({ createdAtMs: undefined, receivedAtMs: arrival, nowMs: later })).toBe(arrival);
    expect(messageTimeMs({ createdAtMs: 0, receivedAtMs: arrival, nowMs: later })).toBe(arrival);
  });

  it('when the arrival is unknown, then the processing time stands in for it', () => {
    expect(messageTimeMs({ createdAtMs: later - 1_000, receivedAtMs: undefined, nowMs: later })).toBe(later - 1_000);
    expect(messageTimeMs({ createdAtMs: undefined, receivedAtMs: 0, nowMs: later })).toBe(later);
    expect(messageTimeMs({ createdAtMs: later + 5_000, receivedAtMs: undefined, nowMs: later })).toBe(later);
  });

  it('when a bound other than 5 minutes is given, then it bounds the time', () => {
    expect(messageTimeMs({ createdAtMs: arrival - 10_000, receivedAtMs: arrival, nowMs: later }, 3_000)).toBe(
      arrival - 3_000,
    );
  });
});

import { tooManyAttemptsMessage, windowOf } from './rate-limit';

describe('fixed windows', () => {
  test('when a time falls inside a minute, then its window is that minute', () => {
    const window = windowOf(new Date('2026-03-01T12:00:23.400Z'), 60_000);
    expect(new Date(window.start).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(new Date(window.end).toISOString()).toBe('2026-03-01T12:01:00.000Z');
  });

  test('when the wait is one second or more, then the message says when to try again', () => {
    expect(tooManyAttemptsMessage(37)).toBe('Too many attempts. Please try again in 37 seconds.');
    expect(tooManyAttemptsMessage(1)).toBe('Too many attempts. Please try again in 1 second.');
  });
});

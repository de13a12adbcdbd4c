import { decideTimerPost, nextInRotation, type ChannelSchedule, type ScheduledTimer } from './timer-schedule';

const minute = 60_000;
const timer = (id: string, createdAtMs: number, intervalMinutes = 5, minChatLines = 0): ScheduledTimer => ({
  id,
  createdAtMs,
  message: id,
  intervalMinutes,
  minChatLines,
});
const a = timer('a', 1);
const b = timer('b', 2);
const c = timer('c', 3);

const live: ChannelSchedule = {
  broadcasterUserId: '42',
  isLive: true,
  startedAtMs: 0,
  lastPostAtMs: null,
  lines: 0,
  lastTimer: null,
};
const bot = { isRunning: true, broadcasterUserId: '42' };

const decide = (channel: Partial<ChannelSchedule>, nowMs: number, timers = [a], withBot = bot) =>
  decideTimerPost({ channel: { ...live, ...channel }, bot: withBot, enabledTimers: timers, nowMs, minuteMs: minute });

describe('nextInRotation', () => {
  test('when nothing posted yet, then the first added goes first, whatever the list order', () => {
    expect(nextInRotation([c, a, b], null)?.id).toBe('a');
  });

  test('when a timer posted, then the next added after it follows, wrapping to the first', () => {
    expect(nextInRotation([a, b, c], { createdAtMs: 1, id: 'a' })?.id).toBe('b');
    expect(nextInRotation([a, b, c], { createdAtMs: 3, id: 'c' })?.id).toBe('a');
  });

  test('when the timer that posted last was deleted, then the rotation goes on after where it stood', () => {
    expect(nextInRotation([a, c], { createdAtMs: 2, id: 'b' })?.id).toBe('c');
  });

  test('when there are no enabled timers, then there is none', () => {
    expect(nextInRotation([], null)).toBeUndefined();
  });
});

describe('decideTimerPost', () => {
  test('when the interval passed since the stream started, then the timer posts', () => {
    expect(decide({}, 5 * minute)).toEqual({ kind: 'post', timer: a });
  });

  test('when the interval has not passed, then it waits', () => {
    expect(decide({}, 5 * minute - 1)).toEqual({ kind: 'wait', reason: 'interval' });
  });

  test('when a timer posted last, then the interval counts from that post', () => {
    expect(decide({ lastPostAtMs: 10 * minute }, 14 * minute)).toEqual({ kind: 'wait', reason: 'interval' });
    expect(decide({ lastPostAtMs: 10 * minute }, 15 * minute)).toEqual({ kind: 'post', timer: a });
  });

  test('when the last post was in an earlier stream, then the interval counts from this stream’s start', () => {
    expect(decide({ lastPostAtMs: 0, startedAtMs: 60 * minute }, 62 * minute)).toEqual({
      kind: 'wait',
      reason: 'interval',
    });
  });

  test('when fewer chat lines than the timer’s minimum arrived, then it waits for them', () => {
    const chatty = timer('a', 1, 5, 3);
    expect(decide({ lines: 2 }, 5 * minute, [chatty])).toEqual({ kind: 'wait', reason: 'chat-quiet' });
    expect(decide({ lines: 3 }, 5 * minute, [chatty])).toEqual({ kind: 'post', timer: chatty });
  });

  test('when the channel is offline, then nothing posts', () => {
    expect(decide({ isLive: false }, 60 * minute)).toEqual({ kind: 'wait', reason: 'not-live' });
  });

  test('when the bot is stopped or runs for another channel, then nothing posts', () => {
    expect(decide({}, 60 * minute, [a], { isRunning: false, broadcasterUserId: '42' })).toEqual({
      kind: 'wait',
      reason: 'bot-not-running',
    });
    expect(decide({}, 60 * minute, [a], { isRunning: true, broadcasterUserId: '7' })).toEqual({
      kind: 'wait',
      reason: 'bot-not-running',
    });
  });

  test('when no timer is enabled, then nothing posts', () => {
    expect(decide({}, 60 * minute, [])).toEqual({ kind: 'wait', reason: 'no-timers' });
  });

  test('when it is a longer timer’s turn, then the shorter one waits behind it (strict rotation)', () => {
    const long = timer('b', 2, 20);
    expect(decide({ lastTimer: { createdAtMs: 1, id: 'a' }, lastPostAtMs: 0 }, 10 * minute, [a, long])).toEqual({
      kind: 'wait',
      reason: 'interval',
    });
  });
});

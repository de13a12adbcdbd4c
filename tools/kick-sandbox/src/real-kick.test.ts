import { createRealKick, documentedKick, realKickPreset } from './real-kick';

describe('real Kick settings', () => {
  test('when nothing is given, then every switch is off (kick-api.md to the letter)', () => {
    const realKick = createRealKick();
    expect(realKick.get()).toEqual(documentedKick);
    expect(Array.from({ length: 20 }, () => realKick.nextChatCall())).toEqual(Array(20).fill('normal'));
    expect(Array.from({ length: 20 }, () => realKick.drawDrift())).toEqual(Array(20).fill([]));
  });

  test('when the next 2 chat calls are rate limited and 1 is not sent, then they count down in that order', () => {
    const realKick = createRealKick({ chatRateLimitNext: 2, chatNotSentNext: 1 });
    expect([1, 2, 3, 4].map(() => realKick.nextChatCall())).toEqual([
      'rate-limited',
      'rate-limited',
      'not-sent',
      'normal',
    ]);
    expect(realKick.get()).toMatchObject({ chatRateLimitNext: 0, chatNotSentNext: 0 });
  });

  test('when rates are 1, then every call and delivery is hit', () => {
    const realKick = createRealKick({ chatNotSentRate: 1, driftNullObjects: 1, driftUnknownVersions: 1 });
    expect([1, 2, 3].map(() => realKick.nextChatCall())).toEqual(['not-sent', 'not-sent', 'not-sent']);
    expect(realKick.drawDrift()).toEqual(['nullObjects', 'unknownVersion']);
  });

  test('when the same seed is set again, then rates between 0 and 1 repeat the same sequence', () => {
    const realKick = createRealKick({ driftUnknownFields: 0.5, seed: 42 });
    const first = Array.from({ length: 16 }, () => realKick.drawDrift().length);
    realKick.patch({ seed: 42 });
    const second = Array.from({ length: 16 }, () => realKick.drawDrift().length);
    expect(second).toEqual(first);
    expect(first).toContain(0);
    expect(first).toContain(1);
  });

  test('when reset, then the documented behaviour is back', () => {
    const realKick = createRealKick(realKickPreset);
    expect(realKick.get().botChat).toBe('server-error');
    expect(realKick.reset()).toEqual(documentedKick);
  });

  test('when a patch is out of range, then it throws and nothing changes', () => {
    const realKick = createRealKick();
    expect(() => realKick.patch({ chatRateLimitRate: 2 })).toThrow();
    expect(realKick.get()).toEqual(documentedKick);
  });
});

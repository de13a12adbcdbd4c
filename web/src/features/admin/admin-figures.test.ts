import { activityOf, actionLabel, detailsText } from './activity';
import type { AuditEntry, ServiceHealth } from './admin-api';
import { niceCeiling, ticksUpTo } from '../../lib/chart-scale';
import { formatUptime, summariseHealth } from './system-health';

const service = (name: string, status: 'up' | 'down', uptimeSeconds: number | null): ServiceHealth => ({
  name,
  status,
  latencyMs: 3,
  uptimeSeconds,
});

describe('system health and uptime (dashboard cards)', () => {
  test('when every service is up, then healthy, and the uptime is the youngest service', () => {
    expect(summariseHealth([service('auth', 'up', 7200), service('games', 'up', 300)])).toEqual({
      health: 'healthy',
      upCount: 2,
      total: 2,
      uptimeSeconds: 300,
    });
  });

  test('when a service is down, then warning, and its uptime does not count', () => {
    expect(summariseHealth([service('auth', 'up', 7200), service('games', 'down', null)])).toEqual({
      health: 'warning',
      upCount: 1,
      total: 2,
      uptimeSeconds: 7200,
    });
  });

  test('when no service reports an uptime, then it is unknown (null), and no services is a warning', () => {
    expect(summariseHealth([service('auth', 'up', null)]).uptimeSeconds).toBeNull();
    expect(summariseHealth([]).health).toBe('warning');
  });

  test.each([
    [0, '0s'],
    [59, '59s'],
    [61, '1m 1s'],
    [3600 * 3 + 60 * 20 + 5, '3h 20m'],
    [86_400 * 2 + 3600 * 4 + 9, '2d 4h'],
  ])('when the uptime is %i s, then it reads %s', (seconds, text) => {
    expect(formatUptime(seconds)).toBe(text);
  });
});

describe('recent activity from the audit log', () => {
  const entry = (action: string, details: Record<string, string> = {}): AuditEntry => ({
    id: `e-${action}`,
    action,
    actor: { id: 'a1', username: 'admin' },
    target: { type: 'user', id: 'u1', username: 'streamer1' },
    details,
    createdAt: '2026-03-01T12:00:00.000Z',
  });

  test('when a user was deactivated, then a user item with a warning, naming who did it to whom', () => {
    expect(activityOf(entry('user.deactivated'))).toEqual({
      id: 'e-user.deactivated',
      type: 'user',
      title: 'User deactivated',
      description: 'admin deactivated streamer1',
      timestamp: '2026-03-01T12:00:00.000Z',
      user: { name: 'admin' },
      status: 'warning',
    });
  });

  test('when webhooks were subscribed, then a system item listing the events and the Kick account', () => {
    const item = activityOf(entry('webhook.subscribed-batch', { events: 'a.b,c.d', kickUsername: 'sandbox', x: '1' }));
    expect(item).toMatchObject({ type: 'system', status: 'success', title: 'Selected webhooks subscribed' });
    expect(item.description).toBe(
      'admin subscribed selected webhooks for streamer1 (events: a.b, c.d · Kick: sandbox)',
    );
  });

  test('when a bot was enabled, then a bot item', () => {
    expect(activityOf(entry('bot.enabled'))).toMatchObject({ type: 'bot', status: 'success', title: 'Bot enabled' });
  });

  test('when the action is unknown, then it shows as recorded, as info', () => {
    expect(activityOf(entry('thing.happened'))).toMatchObject({
      type: 'system',
      status: 'info',
      title: 'thing.happened',
    });
    expect(actionLabel('thing.happened')).toBe('thing.happened');
    expect(detailsText({})).toBe('');
  });
});

describe('chart axis', () => {
  test.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [12, 20],
    [45, 50],
    [101, 200],
  ])('when the largest bar is %i, then the axis tops at %i', (value, top) => {
    expect(niceCeiling(value)).toBe(top);
  });

  test('when the top is small, then each tick is a whole number', () => {
    expect(ticksUpTo(1)).toEqual([0, 1]);
    expect(ticksUpTo(2)).toEqual([0, 1, 2]);
    expect(ticksUpTo(20)).toEqual([0, 5, 10, 15, 20]);
  });
});

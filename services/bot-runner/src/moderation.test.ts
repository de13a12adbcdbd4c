import { defaultModerationFilters, type ModerationFilters } from '@kickstand/api-contract';
import { createSilentLogger } from '@kickstand/platform/log';
import { createFakeClock, createTestPlatform, eventually, type TestPlatform } from '@kickstand/platform/testing';
import { createModerationMemory, onChatForModeration } from './moderation';
import type { ModerationLogDoc, ModerationRepository } from './moderation-repository';
import { createPermits } from './permits';
import type { BotsView } from './read-model';

/** A repository that counts the calls the chat path makes; the filters are the given ones. */
function countingRepo(filters: ModerationFilters) {
  const calls: string[] = [];
  const repo: ModerationRepository = {
    filters: async () => {
      calls.push('filters');
      return filters;
    },
    saveFilters: async () => undefined,
    scopes: async () => undefined,
    saveScopes: async () => undefined,
    insertLog: async () => {
      calls.push('insertLog');
      return true;
    },
    logEntry: async (): Promise<ModerationLogDoc | null> => {
      calls.push('logEntry');
      return null;
    },
    log: async () => [],
    updateLog: async () => null,
  };
  return { repo, calls };
}

const view: BotsView = {
  get: () => ({ isRunning: true, broadcasterUserId: '42', commands: new Map() }),
  apply: () => undefined,
};

const clock = createFakeClock();
let platform: TestPlatform;
beforeEach(async () => {
  platform = await createTestPlatform('bot-runner-moderation', { clock });
});
afterEach(async () => {
  await platform.close();
});

/** Runs one chat line through the moderation consumer, on the bus as in the service. */
async function judgeLine(repo: ModerationRepository, content: string): Promise<void> {
  let handled = 0;
  const judge = onChatForModeration({
    bus: platform.bus,
    repo,
    view,
    memory: createModerationMemory(),
    permits: createPermits(platform.store, clock),
    clock,
    log: createSilentLogger(),
  });
  const subscription = await platform.bus.subscribe('chat.received', 'test.moderation', async (message) => {
    await judge(message);
    handled += 1;
  });
  await platform.bus.publish('chat.received', '42', {
    eventId: 'e1',
    messageId: 'm1',
    broadcasterUserId: '42',
    ownerUserId: 'u1',
    sender: { userId: '7', username: 'viewer' },
    content,
    isFromBot: false,
  });
  await eventually(() => expect(handled).toBe(1));
  await subscription.stop();
}

describe('moderation on the chat path', () => {
  test('when every filter is off, then a line costs one (cached) filters read and no log-entry read', async () => {
    const { repo, calls } = countingRepo(defaultModerationFilters);
    await judgeLine(repo, 'HELLO THERE EVERYONE');
    expect(calls).toEqual(['filters']);
  });

  test('when a filter is on, then the line is looked up in the log before it is judged', async () => {
    const capsOn = { ...defaultModerationFilters, caps: { ...defaultModerationFilters.caps, enabled: true } };
    const { repo, calls } = countingRepo(capsOn);
    await judgeLine(repo, 'hello there');
    expect(calls).toEqual(['filters', 'logEntry']);
  });
});

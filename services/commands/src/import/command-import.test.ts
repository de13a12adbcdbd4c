import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultCommandSettings, maxImportTextLength, type Command } from '@kickstand/api-contract';
import { kickstandTopics, type KickstandTopics } from '@kickstand/platform/bus';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import {
  createFakeClock,
  createTestPlatform,
  recordPublished,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import { ChangeKind } from '@kickstand/proto';
import { createCommands } from '../commands';
import { createCommandsRepository, type StoredCommand } from '../repository';
import { createCommandsService } from '../service';
import { createCommandImport } from './command-import';

interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; message?: string; error?: string };
}

const sample = (file: string) => readFileSync(path.join(__dirname, 'samples', file), 'utf8');

let platform: TestPlatform;
let recorded: RecordedBus<KickstandTopics>;
let running: RunningService;
let baseUrl: string;

beforeAll(async () => {
  platform = await createTestPlatform('commands');
  recorded = recordPublished(platform.bus, kickstandTopics);
  running = await startHttpService(createCommandsService({ ...platform, bus: recorded.bus }), { port: 0 });
  baseUrl = `http://127.0.0.1:${running.port}`;
});

afterAll(async () => {
  await running.stop();
  await platform.close();
});

function aStreamer(id = `u-${randomUUID()}`) {
  const token = platform.signToken({ userId: id, username: `name-${id}`, role: 'USER' });
  const send = async (method: string, route: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  return {
    id,
    get: (route: string) => send('GET', route),
    post: (route: string, body: unknown) => send('POST', route, body),
  };
}

/** Gives the streamer `count` commands directly in the store (faster than `count` POSTs). */
async function giveCommands(userId: string, count: number): Promise<void> {
  const repo = createCommandsRepository(platform.store);
  const set = await repo.load(userId);
  const commands: StoredCommand[] = Array.from({ length: count }, (_, index) => ({
    name: `c${index}`,
    nameLower: `c${index}`,
    response: 'r',
    createdAt: new Date('2026-01-01T00:00:00Z'),
  }));
  await repo.save(userId, set.version, commands, []);
}

describe('POST /api/commands/import/preview', () => {
  test('when a StreamElements export is sent, then 200 with a row per command and the streamer’s count and limit', async () => {
    const streamer = aStreamer();
    const answer = await streamer.post('/api/commands/import/preview', {
      source: 'streamelements',
      text: sample('streamelements.json'),
    });
    expect(answer.status).toBe(200);
    const data = answer.body.data as { rows: Array<{ name: string }>; existingCount: number; maxCommands: number };
    expect(data.rows.map((row) => row.name)).toEqual(['discord', 'dice', 'rps', 'say']);
    expect(data.existingCount).toBe(0);
    expect(data.maxCommands).toBe(500);
  });

  test('when the streamer has a command of a name in the export, then that row is marked as a duplicate', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'Hug', response: 'x' });
    const answer = await streamer.post('/api/commands/import/preview', {
      source: 'nightbot',
      text: sample('nightbot.csv'),
    });
    const rows = (answer.body.data as { rows: Array<{ name: string; problem?: string }> }).rows;
    expect(rows.find((row) => row.name === 'hug')?.problem).toBe(
      'Command "hug" already exists. Skipped (remove it first to replace it).',
    );
  });

  test.each([
    ['the text is empty', { source: 'nightbot', text: ' ' }, 'Paste the export or choose a file.'],
    [
      'the text is too long',
      { source: 'nightbot', text: 'a'.repeat(maxImportTextLength + 1) },
      'The export is too long: at most 90,000 characters. Split it and import it in parts.',
    ],
    [
      'the bot is unknown',
      { source: 'moobot', text: 'x' },
      'Choose the bot the export comes from: nightbot, streamelements, botrix.',
    ],
    ['the JSON is broken', { source: 'streamelements', text: '[{' }, /^The text is not valid JSON/],
  ])('when %s, then 400 with a clear message', async (_case, body, message) => {
    const answer = await aStreamer().post('/api/commands/import/preview', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  test('when the body is over the service’s body limit, then 413', async () => {
    const answer = await aStreamer().post('/api/commands/import/preview', {
      source: 'nightbot',
      text: 'a'.repeat(200_000),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe('Request body is too large');
  });
});

describe('POST /api/commands/import', () => {
  test('when rows are chosen, then they are added in one write with an ADDED each, and the others are not', async () => {
    const streamer = aStreamer();
    const answer = await streamer.post('/api/commands/import', {
      source: 'nightbot',
      text: sample('nightbot.json'),
      names: ['hug', 'so'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: '2 commands imported.',
      data: { imported: ['hug', 'so'], skipped: [], aliasesLeftOut: [] },
    });
    expect((await streamer.get('/api/commands')).body.data).toEqual([
      {
        command: 'hug',
        response: '{user} hugs {touser}! That is hug number {count}.',
        ...defaultCommandSettings,
        globalCooldownSeconds: 30,
      },
      {
        command: 'so',
        response:
          'Go follow $(1) at https://kick.com/$(1) - they were last seen playing $(urlfetch https://decapi.me/twitch/game/$(1))',
        ...defaultCommandSettings,
        permission: 'moderators',
        globalCooldownSeconds: 10,
      },
    ]);
    const changes = recorded
      .publishedWithKeys('command.changed')
      .filter(({ message }) => message.userId === streamer.id);
    expect(changes.map(({ message }) => [message.kind, message.command])).toEqual([
      [ChangeKind.ADDED, 'hug'],
      [ChangeKind.ADDED, 'so'],
    ]);
  });

  test('when a chosen row is a duplicate, invalid or not in the export, then it is skipped with its reason', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'discord', response: 'mine' });
    const answer = await streamer.post('/api/commands/import', {
      source: 'nightbot',
      text: sample('nightbot.csv'),
      names: ['discord', 'lurk', 'this is bad', 'nope'],
    });
    expect(answer.body.data).toEqual({
      imported: ['lurk'],
      skipped: [
        { name: 'discord', reason: 'Command "discord" already exists. Skipped (remove it first to replace it).' },
        { name: 'this is bad', reason: 'Command must be a single word (no spaces allowed).' },
        { name: 'nope', reason: 'Not in this export.' },
      ],
      aliasesLeftOut: [],
    });
    expect((await streamer.get('/api/commands')).body.data).toEqual([
      { command: 'discord', response: 'mine', ...defaultCommandSettings },
      {
        command: 'lurk',
        response: '{user} is now lurking. "Enjoy!"',
        ...defaultCommandSettings,
        permission: 'vips',
        globalCooldownSeconds: 5,
      },
    ]);
  });

  test('when the import would exceed 500 commands, then 409 and nothing is imported', async () => {
    const streamer = aStreamer();
    await giveCommands(streamer.id, 498);
    const answer = await streamer.post('/api/commands/import', {
      source: 'streamelements',
      text: sample('streamelements.json'),
      names: ['discord', 'dice', 'rps'],
    });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(
      'You have 498 commands; importing 3 more would exceed the limit of 500. Select fewer commands or remove some first.',
    );
    expect((await streamer.get('/api/commands')).body.data).toHaveLength(498);
  });

  test('when the import exactly reaches 500 commands, then it is imported', async () => {
    const streamer = aStreamer();
    await giveCommands(streamer.id, 498);
    const answer = await streamer.post('/api/commands/import', {
      source: 'streamelements',
      text: sample('streamelements.json'),
      names: ['discord', 'dice'],
    });
    expect(answer.status).toBe(200);
    expect((await streamer.get('/api/commands')).body.data).toHaveLength(500);
  });

  test('when no row is chosen, then 400', async () => {
    const answer = await aStreamer().post('/api/commands/import', { source: 'botrix', text: '!a b', names: [] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Select at least one command to import.');
  });
});

describe('each sample, previewed then imported', () => {
  test.each([
    ['nightbot', 'nightbot.json'],
    ['nightbot', 'nightbot.csv'],
    ['streamelements', 'streamelements.json'],
    ['botrix', 'botrix.json'],
    ['botrix', 'botrix-paste.txt'],
  ])('when %s’s %s is imported whole, then the streamer has exactly the previewed commands', async (source, file) => {
    const streamer = aStreamer();
    const text = sample(file);
    const preview = await streamer.post('/api/commands/import/preview', { source, text });
    const rows = (preview.body.data as { rows: Array<{ name: string; response: string; problem?: string }> }).rows;
    const importable = rows.filter((row) => !row.problem);
    expect(importable.length).toBeGreaterThan(0);

    const applied = await streamer.post('/api/commands/import', { source, text, names: rows.map((row) => row.name) });

    expect(applied.status).toBe(200);
    const listed = ((await streamer.get('/api/commands')).body.data as Command[]).map(({ command, response }) => ({
      command,
      response,
    }));
    const byName = (a: { command: string }, b: { command: string }) => a.command.localeCompare(b.command);
    expect([...listed].sort(byName)).toEqual(
      importable.map((row) => ({ command: row.name, response: row.response })).sort(byName),
    );
  });
});

describe('the other bot’s settings', () => {
  test('when a StreamElements export is imported, then its cooldowns, access level, switch and aliases come along', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'echo', response: 'mine' });
    const answer = await streamer.post('/api/commands/import', {
      source: 'streamelements',
      text: sample('streamelements.json'),
      names: ['discord', 'dice', 'rps', 'say'],
    });
    expect(answer.body.data).toEqual({
      imported: ['discord', 'dice', 'rps', 'say'],
      skipped: [],
      aliasesLeftOut: [{ command: 'say', alias: 'echo', reason: 'Command "echo" already exists.' }],
    });
    const listed = (await streamer.get('/api/commands')).body.data as Command[];
    const settingsOf = (name: string) => {
      const { command: _name, response: _response, ...settings } = listed.find((command) => command.command === name)!;
      return settings;
    };
    expect(settingsOf('discord')).toEqual({
      ...defaultCommandSettings,
      aliases: ['dc', 'disc'],
      globalCooldownSeconds: 5,
      userCooldownSeconds: 15,
    });
    expect(settingsOf('dice')).toEqual({
      ...defaultCommandSettings,
      permission: 'subscribers',
      globalCooldownSeconds: 5,
      userCooldownSeconds: 30,
    });
    expect(settingsOf('rps')).toEqual({
      ...defaultCommandSettings,
      enabled: false,
      permission: 'moderators',
      globalCooldownSeconds: 10,
    });
    expect(settingsOf('say')).toEqual({
      ...defaultCommandSettings,
      permission: 'broadcaster',
      globalCooldownSeconds: 0,
    });
  });
});

describe('import atomicity', () => {
  test('when the store write fails, then nothing of the import is written and nothing is published', async () => {
    const repo = createCommandsRepository(platform.store);
    const failing = { ...repo, save: () => Promise.reject(new Error('disk full')) };
    const published: unknown[] = [];
    const commands = createCommands({
      repo: failing,
      outbox: {
        publishFrom: async (set) => {
          published.push(...set.outbox);
          return true;
        },
      },
      queue: createKeyedQueue(),
      clock: createFakeClock(),
    });
    const imports = createCommandImport({
      commands,
      loadCommands: async (userId) => (await repo.load(userId)).commands,
    });
    const userId = `u-${randomUUID()}`;

    await expect(
      imports.apply(userId, {
        source: 'botrix',
        text: sample('botrix-paste.txt'),
        names: ['discord', 'hug', 'socials'],
      }),
    ).rejects.toThrow('disk full');

    expect((await repo.load(userId)).commands).toEqual([]);
    expect(published).toEqual([]);
  });
});

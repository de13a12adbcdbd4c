import { randomUUID } from 'node:crypto';
import type { Role } from '@kickstand/platform/auth';
import { kickstandTopics } from '@kickstand/platform/bus';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import {
  createTestPlatform,
  eventually,
  recordPublished,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import {
  ChangeKind,
  CommandPermission,
  KickAccountChangeKind,
  UserChangeKind,
  UserRole,
  commandSettingsDefaults,
  timestampFromDate,
} from '@kickstand/proto';
import type { KickstandBus, KickstandTopics } from '@kickstand/platform/bus';
import { defaultCommandSettings } from '@kickstand/api-contract';
import { createCommandsRepository, type LegacyCommandDoc } from './repository';
import { createCommandsService } from './service';

/** A command as the routes answer it: with the default settings unless `settings` says otherwise. */
const cmd = (command: string, response: string, settings: object = {}) => ({
  command,
  response,
  ...defaultCommandSettings,
  ...settings,
});

interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; message?: string; error?: string; details?: unknown };
}

interface Streamer {
  id: string;
  get(path: string): Promise<Answer>;
  post(path: string, body: unknown): Promise<Answer>;
  delete(path: string, body: unknown): Promise<Answer>;
  patch(path: string, body: unknown): Promise<Answer>;
}

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

async function send(method: string, path: string, options: { token?: string; body?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: options.body });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** A streamer of their own for each test, signed in. */
function aStreamer(id = `u-${randomUUID()}`, role: Role = 'USER'): Streamer {
  const token = platform.signToken({ userId: id, username: `name-${id}`, role });
  return {
    id,
    get: (path) => send('GET', path, { token }),
    post: (path, body) => send('POST', path, { token, body: JSON.stringify(body) }),
    delete: (path, body) => send('DELETE', path, { token, body: JSON.stringify(body) }),
    patch: (path, body) => send('PATCH', path, { token, body: JSON.stringify(body) }),
  };
}

const changesOf = (userId: string) =>
  recorded.publishedWithKeys('command.changed').filter(({ message }) => message.userId === userId);

const publishUserChanged = (key: string, userId: string, kind: UserChangeKind, role = UserRole.USER) =>
  platform.bus.publish('user.changed', key, {
    eventId: `e-${userId}-${kind}`,
    userId,
    kind,
    username: `name-${userId}`,
    role,
    isActive: true,
  });

/**
 * Messages with one key are handled in publish order, so a CREATED for a fresh user published
 * under the same key is handled after everything before it: once its default command shows up,
 * the earlier messages are done.
 */
async function waitUntilHandled(key: string): Promise<void> {
  const sentinel = aStreamer();
  await publishUserChanged(key, sentinel.id, UserChangeKind.CREATED);
  await eventually(async () => expect((await sentinel.get('/api/commands')).body.data).toHaveLength(1));
}

test('when the contract and the events name the default settings, then they are the same', () => {
  expect(defaultCommandSettings).toEqual(commandSettingsDefaults);
});

describe('POST /api/commands', () => {
  test('when the command is valid, then 201 with the spec message and the command, and ADDED is published', async () => {
    const streamer = aStreamer();

    const added = await streamer.post('/api/commands', { command: 'hello', response: 'Hi {user}!' });

    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      success: true,
      message: 'Command "hello" added successfully!',
      data: cmd('hello', 'Hi {user}!'),
    });
    const changes = changesOf(streamer.id);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.key).toBe(streamer.id);
    expect(changes[0]?.message).toMatchObject({
      userId: streamer.id,
      kind: ChangeKind.ADDED,
      command: 'hello',
      response: 'Hi {user}!',
    });
    expect(changes[0]?.message.eventId).not.toBe('');
    expect(changes[0]?.message.occurredAt).toBeDefined();
  });

  test('when the name starts with $, then the $ is dropped and the name is kept as typed', async () => {
    const streamer = aStreamer();

    const added = await streamer.post('/api/commands', { command: '$Hello', response: 'hi' });

    expect(added.status).toBe(201);
    expect(added.body.message).toBe('Command "Hello" added successfully!');
    expect(added.body.data).toEqual(cmd('Hello', 'hi'));
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('Hello', 'hi')]);
  });

  test.each([
    ['the name is empty', { command: '', response: '' }, 'Command name is required.'],
    ['the name is only blanks', { command: '   ', response: 'hi' }, 'Command name is required.'],
    ['the name is missing', { response: 'hi' }, 'Command name is required.'],
    ['the name is only the $', { command: '$', response: 'hi' }, 'Command name is required.'],
    ['the name has a space', cmd('he llo!', ''), 'Command must be a single word (no spaces allowed).'],
    ['the name has a tab', cmd('he\tllo', 'hi'), 'Command must be a single word (no spaces allowed).'],
    [
      'the name has other characters',
      cmd('héllo!', ''),
      'Command can only contain letters, numbers, hyphens, and underscores.',
    ],
    ['the name has two $', cmd('$$hi', 'hi'), 'Command can only contain letters, numbers, hyphens, and underscores.'],
    [
      'the name is longer than 50',
      { command: 'a'.repeat(51), response: '' },
      'Command name must be 50 characters or less.',
    ],
    ['the response is empty', { command: 'ok', response: '' }, 'Response text is required.'],
    ['the response is missing', { command: 'ok' }, 'Response text is required.'],
    ['the response is only blanks', { command: 'ok', response: ' \n ' }, 'Response text is required.'],
    [
      'the response is 501 characters',
      { command: 'ok', response: 'x'.repeat(501) },
      'Response text must be 500 characters or less',
    ],
  ])("when %s, then 400 with that rule's message and nothing is stored", async (_case, body, message) => {
    const streamer = aStreamer();

    const answer = await streamer.post('/api/commands', body);

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: message });
    expect((await streamer.get('/api/commands')).body.data).toEqual([]);
    expect(changesOf(streamer.id)).toHaveLength(0);
  });

  test('when the name is 50 characters and the response 500, then both are accepted', async () => {
    const streamer = aStreamer();
    const name = `a-${'b'.repeat(46)}_1`;

    const added = await streamer.post('/api/commands', { command: name, response: 'r'.repeat(500) });

    expect(name).toHaveLength(50);
    expect(added.status).toBe(201);
  });

  test('when the name is taken in another letter case, then 409 naming it as typed, and nothing is published', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });

    const second = await streamer.post('/api/commands', { command: 'HeLLo', response: 'again' });
    const withPrefix = await streamer.post('/api/commands', { command: '$HELLO', response: 'again' });

    expect(second.status).toBe(409);
    expect(second.body).toEqual({ success: false, error: 'Command "HeLLo" already exists.' });
    expect(withPrefix.body).toEqual({ success: false, error: 'Command "HELLO" already exists.' });
    expect(changesOf(streamer.id)).toHaveLength(1);
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('hello', 'hi')]);
  });

  test('when the name is a built-in command in any letter case, then 409 saying so, and nothing is stored or published', async () => {
    const streamer = aStreamer();

    const hero = await streamer.post('/api/commands', { command: '$Hero', response: 'my hero' });
    const gmb = await streamer.post('/api/commands', { command: 'gmb', response: 'guess' });

    expect(hero.status).toBe(409);
    expect(hero.body).toEqual({ success: false, error: '"$Hero" is a built-in command. Choose another name.' });
    expect(gmb.body).toEqual({ success: false, error: '"$gmb" is a built-in command. Choose another name.' });
    expect(changesOf(streamer.id)).toHaveLength(0);
    expect((await streamer.get('/api/commands')).body.data).toEqual([]);
  });

  test('when the name is taken and the response is empty, then the name rule comes first (409)', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });

    const second = await streamer.post('/api/commands', { command: 'hello', response: '' });

    expect(second.status).toBe(409);
    expect(second.body.error).toBe('Command "hello" already exists.');
  });

  test('when another streamer has the same name, then it is still free', async () => {
    const first = aStreamer();
    const second = aStreamer();
    await first.post('/api/commands', { command: 'hello', response: 'one' });

    expect((await second.post('/api/commands', { command: 'hello', response: 'two' })).status).toBe(201);
  });

  test('when the streamer already has 500 commands, then the 501st is refused with 409 and the limit message', async () => {
    const streamer = aStreamer();
    // stored the way earlier versions did, one document per command: the first request reads them into the set
    const legacy = platform.store.collection<LegacyCommandDoc>('commands');
    for (let i = 0; i < 499; i++) {
      const name = `c${i}`;
      await legacy.insertOne({ userId: streamer.id, name, nameLower: name, response: 'r', createdAt: new Date() });
    }

    const fiveHundredth = await streamer.post('/api/commands', { command: 'last', response: 'r' });
    const fiveHundredFirst = await streamer.post('/api/commands', { command: 'one-more', response: 'r' });

    expect(fiveHundredth.status).toBe(201);
    expect(fiveHundredFirst.status).toBe(409);
    expect(fiveHundredFirst.body).toEqual({
      success: false,
      error: 'You can have at most 500 commands. Remove one to add another.',
    });
    expect((await streamer.get('/api/commands')).body.data).toHaveLength(500);
    await streamer.delete('/api/commands', { command: 'c0' });
    expect((await streamer.post('/api/commands', { command: 'one-more', response: 'r' })).status).toBe(201);
  });

  test.each([
    ['an unknown field', { command: 'hi', response: 'r', extra: 1 }, 'Unrecognized key: "extra"'],
    ['an operator object as the name', { command: { $gt: '' }, response: 'r' }, 'command must be a string'],
    ['a number as the name', { command: 5, response: 'r' }, 'command must be a string'],
    ['an array as the response', { command: 'hi', response: ['r'] }, 'response must be a string'],
    ['an array as the body', [{ command: 'hi', response: 'r' }], 'Invalid input: expected object, received array'],
  ])('when the body has %s, then 400 and nothing is stored', async (_case, body, message) => {
    const streamer = aStreamer();

    const answer = await streamer.post('/api/commands', body);

    expect(answer.status).toBe(400);
    expect(answer.body.success).toBe(false);
    expect(answer.body.error).toBe(message);
    expect((await streamer.get('/api/commands')).body.data).toEqual([]);
  });

  test('when the body is not JSON, then 400', async () => {
    const streamer = aStreamer();
    const token = platform.signToken({ userId: streamer.id, username: 'x', role: 'USER' });

    const answer = await send('POST', '/api/commands', { token, body: '{"command":' });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: 'Request body is not valid JSON' });
  });
});

describe('GET /api/commands', () => {
  test('when two streamers have commands, then each sees only their own, ordered by name in any letter case', async () => {
    const streamer = aStreamer();
    const other = aStreamer();
    await streamer.post('/api/commands', { command: 'beta', response: '2' });
    await streamer.post('/api/commands', { command: 'Alpha', response: '1' });
    await streamer.post('/api/commands', { command: 'gamma', response: '3' });
    await other.post('/api/commands', { command: 'zeta', response: 'z' });

    const list = await streamer.get('/api/commands');

    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      success: true,
      data: [cmd('Alpha', '1'), cmd('beta', '2'), cmd('gamma', '3')],
    });
    expect((await other.get('/api/commands')).body.data).toEqual([cmd('zeta', 'z')]);
  });

  test('when there is no token, then 401', async () => {
    const answer = await send('GET', '/api/commands');

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ success: false, error: 'Authentication required' });
  });

  test('when the token is forged, then 401', async () => {
    const answer = await send('GET', '/api/commands', { token: 'not.a.token' });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ success: false, error: 'Invalid or expired token' });
  });

  test('when user.changed says the streamer was deactivated, then their token is refused on this port (past the gateway), and accepted again once activated', async () => {
    const streamer = aStreamer();
    expect((await streamer.get('/api/commands')).status).toBe(200);

    await platform.bus.publish('user.changed', streamer.id, {
      eventId: randomUUID(),
      userId: streamer.id,
      kind: UserChangeKind.DEACTIVATED,
      username: `name-${streamer.id}`,
      role: UserRole.USER,
      isActive: false,
    });
    await eventually(async () =>
      expect(await streamer.get('/api/commands')).toEqual({
        status: 401,
        body: { success: false, error: 'Your account has been deactivated' },
      }),
    );

    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.ACTIVATED);
    await eventually(async () => expect((await streamer.get('/api/commands')).status).toBe(200));
  });

  test('when the streamer signed out (token version 1), then the older token is refused and a new one works', async () => {
    const streamer = aStreamer();
    await platform.bus.publish('user.changed', streamer.id, {
      eventId: randomUUID(),
      userId: streamer.id,
      kind: UserChangeKind.SIGNED_OUT,
      username: `name-${streamer.id}`,
      role: UserRole.USER,
      isActive: true,
      tokenVersion: 1,
    });
    await eventually(async () =>
      expect(await streamer.get('/api/commands')).toEqual({
        status: 401,
        body: { success: false, error: 'Your session has ended: please sign in again' },
      }),
    );
    const fresh = platform.signToken({ userId: streamer.id, username: `name-${streamer.id}`, role: 'USER' }, 1);
    expect((await send('GET', '/api/commands', { token: fresh })).status).toBe(200);
  });
});

describe('GET /api/commands/variables', () => {
  test('when asked, then every response variable is listed with a description', async () => {
    const answer = await aStreamer().get('/api/commands/variables');

    expect(answer.status).toBe(200);
    const variables = answer.body.data as Array<{ name: string; description: string }>;
    expect(variables.map(({ name }) => name)).toEqual([
      '{user}',
      '{touser}',
      '{args}',
      '{channel}',
      '{count}',
      '{random:A-B}',
      '{counter:name}',
      '{counter:name+1}',
      '{uptime}',
      '{game}',
      '{title}',
    ]);
    for (const variable of variables) expect(variable.description).not.toBe('');
  });

  test('when there is no token, then 401', async () => {
    expect((await send('GET', '/api/commands/variables')).status).toBe(401);
  });
});

describe('PATCH /api/commands/:name', () => {
  test('when the response changes, then 200 with the message and the command, and UPDATED carries the old name and the settings', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });

    const updated = await streamer.patch('/api/commands/HELLO', { response: 'Hi {user}!' });

    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      success: true,
      message: 'Command "hello" updated successfully!',
      data: cmd('hello', 'Hi {user}!'),
    });
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('hello', 'Hi {user}!')]);
    const last = changesOf(streamer.id).at(-1)?.message;
    expect(last).toMatchObject({
      kind: ChangeKind.UPDATED,
      command: 'hello',
      previousCommand: 'hello',
      response: 'Hi {user}!',
      settings: {
        enabled: true,
        aliases: [],
        permission: CommandPermission.EVERYONE,
        globalCooldownSeconds: 1,
        userCooldownSeconds: 0,
        modsExempt: true,
      },
    });
  });

  test('when the command is renamed, then it keeps its response and settings under the new name', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'disc', response: 'd', aliases: ['dc'], permission: 'vips' });

    const renamed = await streamer.patch('/api/commands/$disc', { command: '$Discord' });

    expect(renamed.status).toBe(200);
    expect(renamed.body.message).toBe('Command "Discord" updated successfully!');
    expect((await streamer.get('/api/commands')).body.data).toEqual([
      cmd('Discord', 'd', { aliases: ['dc'], permission: 'vips' }),
    ]);
    expect(changesOf(streamer.id).at(-1)?.message).toMatchObject({
      kind: ChangeKind.UPDATED,
      command: 'Discord',
      previousCommand: 'disc',
    });
  });

  test('when the new name differs only in letter case, then it is the same command and the rename is kept', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });

    const renamed = await streamer.patch('/api/commands/hello', { command: 'Hello' });

    expect(renamed.status).toBe(200);
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('Hello', 'hi')]);
  });

  test.each([
    ['another command', { command: 'Other' }, 409, 'Command "Other" already exists.'],
    ['another command’s alias', { command: 'dc' }, 409, '"$dc" is already an alias of $other.'],
    ['a built-in command', { command: 'HERO' }, 409, '"$HERO" is a built-in command. Choose another name.'],
    ['two words', { command: 'a b' }, 400, 'Command must be a single word (no spaces allowed).'],
    ['an empty response', { response: '  ' }, 400, 'Response text is required.'],
    ['a 501-character response', { response: 'x'.repeat(501) }, 400, 'Response text must be 500 characters or less'],
  ])('when the edit gives %s, then %s with the message and nothing changes', async (_case, body, status, message) => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'other', response: 'o', aliases: ['dc'] });
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });
    const before = changesOf(streamer.id).length;

    const answer = await streamer.patch('/api/commands/hello', body);

    expect(answer).toEqual({ status, body: { success: false, error: message } });
    expect((await streamer.get('/api/commands')).body.data).toEqual([
      cmd('hello', 'hi'),
      cmd('other', 'o', { aliases: ['dc'] }),
    ]);
    expect(changesOf(streamer.id)).toHaveLength(before);
  });

  test('when the command does not exist, then 404 with the spec message', async () => {
    const answer = await aStreamer().patch('/api/commands/nope', { response: 'x' });

    expect(answer).toEqual({ status: 404, body: { success: false, error: 'Command "nope" not found.' } });
  });

  test('when another streamer has the command, then 404: a streamer edits only their own', async () => {
    const owner = aStreamer();
    await owner.post('/api/commands', { command: 'mine', response: 'm' });

    const answer = await aStreamer().patch('/api/commands/mine', { response: 'stolen' });

    expect(answer.status).toBe(404);
    expect((await owner.get('/api/commands')).body.data).toEqual([cmd('mine', 'm')]);
  });

  test('when the settings change, then they are stored, listed and published', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });
    const settings = {
      enabled: false,
      aliases: ['hi', '$Hey'],
      permission: 'subscribers',
      globalCooldownSeconds: 0,
      userCooldownSeconds: 30,
      modsExempt: false,
    };

    const updated = await streamer.patch('/api/commands/hello', settings);

    expect(updated.status).toBe(200);
    const expected = cmd('hello', 'hi', { ...settings, aliases: ['hi', 'Hey'] });
    expect(updated.body.data).toEqual(expected);
    expect((await streamer.get('/api/commands')).body.data).toEqual([expected]);
    expect(changesOf(streamer.id).at(-1)?.message.settings).toMatchObject({
      enabled: false,
      aliases: ['hi', 'Hey'],
      permission: CommandPermission.SUBSCRIBERS,
      globalCooldownSeconds: 0,
      userCooldownSeconds: 30,
      modsExempt: false,
    });
  });

  test('when only one setting is given, then the others keep their values', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', {
      command: 'hello',
      response: 'hi',
      aliases: ['hey'],
      userCooldownSeconds: 5,
    });

    await streamer.patch('/api/commands/hello', { enabled: false });

    expect((await streamer.get('/api/commands')).body.data).toEqual([
      cmd('hello', 'hi', { enabled: false, aliases: ['hey'], userCooldownSeconds: 5 }),
    ]);
  });

  test.each([
    ['a negative cooldown', { globalCooldownSeconds: -1 }, 'Cooldowns are whole seconds from 0 to 86400.'],
    ['a fractional cooldown', { userCooldownSeconds: 1.5 }, 'Cooldowns are whole seconds from 0 to 86400.'],
    ['a cooldown over a day', { userCooldownSeconds: 86_401 }, 'Cooldowns are whole seconds from 0 to 86400.'],
    [
      'an unknown permission',
      { permission: 'admins' },
      'Permission must be one of: everyone, subscribers, vips, moderators, broadcaster.',
    ],
    [
      'eleven aliases',
      { aliases: Array.from({ length: 11 }, (_, i) => `a${i}`) },
      'A command can have at most 10 aliases.',
    ],
    ['a string as enabled', { enabled: 'no' }, 'enabled must be true or false'],
    ['an unknown field', { cooldown: 5 }, 'Unrecognized key: "cooldown"'],
  ])('when the edit has %s, then 400 with the message', async (_case, body, message) => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });

    const answer = await streamer.patch('/api/commands/hello', body);

    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(message);
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('hello', 'hi')]);
  });
});

describe('aliases', () => {
  test.each([
    ['another command’s name', ['Other'], 409, 'Command "Other" already exists.'],
    ['another command’s alias', ['o'], 409, '"$o" is already an alias of $other.'],
    ['a built-in command', ['mmr'], 409, '"$mmr" is a built-in command. Choose another name.'],
    ['the command’s own name', ['HELLO'], 400, 'Alias "HELLO" repeats a name of this command.'],
    ['the same alias twice', ['hey', 'HEY'], 400, 'Alias "HEY" repeats a name of this command.'],
    [
      'a name with a blank',
      ['he y'],
      400,
      'Alias "he y" must be one word of letters, numbers, hyphens and underscores, at most 50 characters.',
    ],
    [
      'an empty name',
      [''],
      400,
      'Alias "" must be one word of letters, numbers, hyphens and underscores, at most 50 characters.',
    ],
  ])('when an alias is %s, then %s with the message', async (_case, aliases, status, message) => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'other', response: 'o', aliases: ['o'] });
    await streamer.post('/api/commands', { command: 'hello', response: 'hi' });

    const edited = await streamer.patch('/api/commands/hello', { aliases });
    const added = await streamer.post('/api/commands', {
      command: 'fresh',
      response: 'f',
      aliases: ['fresh2', ...aliases],
    });

    expect(edited).toEqual({ status, body: { success: false, error: message } });
    if (aliases[0] !== 'HELLO') expect(added.status).toBe(status);
    expect((await streamer.get('/api/commands')).body.data).toEqual([
      cmd('hello', 'hi'),
      cmd('other', 'o', { aliases: ['o'] }),
    ]);
  });

  test('when a new command is named like another command’s alias, then 409 and it is not added', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'discord', response: 'd', aliases: ['dc'] });

    const answer = await streamer.post('/api/commands', { command: 'DC', response: 'x' });

    expect(answer).toEqual({ status: 409, body: { success: false, error: '"$DC" is already an alias of $discord.' } });
  });

  test('when a command is removed, then its aliases are free again', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'discord', response: 'd', aliases: ['dc'] });
    await streamer.delete('/api/commands', { command: 'discord' });

    const answer = await streamer.post('/api/commands', { command: 'dc', response: 'x' });

    expect(answer.status).toBe(201);
  });

  test('when a command is renamed to its own alias, then 400: drop the alias in the same edit', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'discord', response: 'd', aliases: ['dc'] });

    const kept = await streamer.patch('/api/commands/discord', { command: 'dc' });
    const swapped = await streamer.patch('/api/commands/discord', { command: 'dc', aliases: ['discord'] });

    expect(kept).toEqual({
      status: 400,
      body: { success: false, error: 'Alias "dc" repeats a name of this command.' },
    });
    expect(swapped.status).toBe(200);
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('dc', 'd', { aliases: ['discord'] })]);
  });

  test('when two streamers use the same alias, then both have it: aliases are per channel', async () => {
    const a = aStreamer();
    const b = aStreamer();

    const first = await a.post('/api/commands', { command: 'discord', response: 'd', aliases: ['dc'] });
    const second = await b.post('/api/commands', { command: 'discord', response: 'd', aliases: ['dc'] });

    expect([first.status, second.status]).toEqual([201, 201]);
  });
});

describe('GET /api/commands/channel/:channel (public)', () => {
  const linkChannel = (userId: string, kickUsername: string, kind: KickAccountChangeKind, at: number) =>
    platform.bus.publish('kick.account', userId, {
      eventId: randomUUID(),
      occurredAt: timestampFromDate(new Date(at)),
      userId,
      kind,
      kickUserId: '4377088',
      kickUsername,
    });

  test('when a streamer linked the channel, then anyone sees its enabled commands with aliases, permission and cooldowns', async () => {
    const streamer = aStreamer();
    const name = `Streamer_${randomUUID().slice(0, 8)}`;
    await linkChannel(streamer.id, name, KickAccountChangeKind.LINKED, 1000);
    await streamer.post('/api/commands', {
      command: 'discord',
      response: 'join',
      aliases: ['dc'],
      permission: 'subscribers',
      userCooldownSeconds: 30,
    });
    await streamer.post('/api/commands', { command: 'hidden', response: 'h', enabled: false });

    let answer: Answer | undefined;
    await eventually(async () => {
      answer = await send('GET', `/api/commands/channel/${name.toLowerCase().replace('_', '-')}`);
      expect(answer.status).toBe(200);
    });

    const { enabled: _enabled, ...shown } = cmd('discord', 'join', {
      aliases: ['dc'],
      permission: 'subscribers',
      userCooldownSeconds: 30,
    });
    expect(answer?.body).toEqual({ success: true, data: { channel: name, commands: [shown] } });
  });

  test('when no streamer linked the channel, or it was unlinked, then 404 with the message', async () => {
    const streamer = aStreamer();
    const name = `gone_${randomUUID().slice(0, 8)}`;
    await linkChannel(streamer.id, name, KickAccountChangeKind.LINKED, 1000);
    await eventually(async () => expect((await send('GET', `/api/commands/channel/${name}`)).status).toBe(200));

    await linkChannel(streamer.id, name, KickAccountChangeKind.UNLINKED, 2000);
    // an older LINKED delivered late changes nothing
    await linkChannel(streamer.id, name, KickAccountChangeKind.LINKED, 1500);

    await eventually(async () =>
      expect(await send('GET', `/api/commands/channel/${name}`)).toEqual({
        status: 404,
        body: { success: false, error: `No Kickstand commands for the channel "${name}".` },
      }),
    );
    expect((await send('GET', '/api/commands/channel/nobody-here')).status).toBe(404);
  });
});

describe('the public page backfill (channels linked before commands read kick.account)', () => {
  const ran = (ownerUserId: string, invoker: { id: string; username: string }, at: number, key = ownerUserId) =>
    platform.bus.publish('command.executed', key, {
      eventId: randomUUID(),
      occurredAt: timestampFromDate(new Date(at)),
      executedAt: timestampFromDate(new Date(at)),
      ownerUserId,
      broadcasterUserId: '4377088',
      command: 'discord',
      invokedByUsername: invoker.username,
      invokedByUserId: invoker.id,
      messageId: randomUUID(),
      response: 'join',
    });
  const account = (userId: string, kickUsername: string, kind: KickAccountChangeKind, at: number) =>
    platform.bus.publish('kick.account', userId, {
      eventId: randomUUID(),
      occurredAt: timestampFromDate(new Date(at)),
      userId,
      kind,
      kickUserId: '4377088',
      kickUsername,
    });
  const publicPage = (name: string) => send('GET', `/api/commands/channel/${name}`);
  /** Messages with one key are handled in order: once a later one's channel shows, the earlier ones are done. */
  const handledUpTo = async (key: string) => {
    const sentinel = `sentinel_${randomUUID().slice(0, 8)}`;
    await ran(`u-${randomUUID()}`, { id: '4377088', username: sentinel }, 3000, key);
    await eventually(async () => expect((await publicPage(sentinel)).status).toBe(200));
  };

  test('when the broadcaster runs a command in their own chat, then their channel gets its public page; a viewer’s run names nothing', async () => {
    const streamer = aStreamer();
    const name = `Early_${randomUUID().slice(0, 8)}`;
    await streamer.post('/api/commands', { command: 'discord', response: 'join' });

    const viewer = `viewer_${randomUUID().slice(0, 8)}`;
    await ran(streamer.id, { id: '999', username: viewer }, 1000);
    await ran(streamer.id, { id: '4377088', username: name }, 2000);

    await eventually(async () => expect((await publicPage(name.toLowerCase())).status).toBe(200));
    const { enabled: _enabled, ...shown } = cmd('discord', 'join');
    expect((await publicPage(name)).body).toEqual({ success: true, data: { channel: name, commands: [shown] } });
    expect((await publicPage(viewer)).status).toBe(404);
  });

  test('when kick-link says the link needs a relink, then the channel it names gets its public page', async () => {
    const streamer = aStreamer();
    const name = `relink_${randomUUID().slice(0, 8)}`;

    await account(streamer.id, name, KickAccountChangeKind.NEEDS_RELINK, 1000);

    await eventually(async () =>
      expect(await publicPage(name)).toEqual({
        status: 200,
        body: { success: true, data: { channel: name, commands: [] } },
      }),
    );
  });

  test('when kick.account already named or unlinked the channel, then a command run changes nothing', async () => {
    const linked = aStreamer();
    const unlinked = aStreamer();
    const linkedName = `kept_${randomUUID().slice(0, 8)}`;
    const unlinkedName = `unlinked_${randomUUID().slice(0, 8)}`;
    const other = `other_${randomUUID().slice(0, 8)}`;
    await account(linked.id, linkedName, KickAccountChangeKind.LINKED, 1000);
    await account(unlinked.id, unlinkedName, KickAccountChangeKind.UNLINKED, 1000);
    await eventually(async () => expect((await publicPage(linkedName)).status).toBe(200));

    await ran(linked.id, { id: '4377088', username: other }, 2000);
    await ran(unlinked.id, { id: '4377088', username: unlinkedName }, 2000);
    await Promise.all([handledUpTo(linked.id), handledUpTo(unlinked.id)]);

    expect((await publicPage(linkedName)).status).toBe(200);
    expect((await publicPage(other)).status).toBe(404);
    expect((await publicPage(unlinkedName)).status).toBe(404);
  });
});

describe('DELETE /api/commands', () => {
  test('when the command exists, then 200 with the spec message, it is gone, and REMOVED is published with its response', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'Hello', response: 'hi' });

    const removed = await streamer.delete('/api/commands', { command: '$hello' });

    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      success: true,
      message: 'Command "Hello" removed successfully!',
      data: cmd('Hello', 'hi'),
    });
    expect((await streamer.get('/api/commands')).body.data).toEqual([]);
    const changes = changesOf(streamer.id);
    expect(changes.map(({ message }) => message.kind)).toEqual([ChangeKind.ADDED, ChangeKind.REMOVED]);
    expect(changes[1]?.key).toBe(streamer.id);
    expect(changes[1]?.message).toMatchObject({ userId: streamer.id, command: 'Hello', response: 'hi' });
  });

  test('when the command does not exist, then 404 naming it, and nothing is published', async () => {
    const streamer = aStreamer();

    const answer = await streamer.delete('/api/commands', { command: 'nope' });

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ success: false, error: 'Command "nope" not found.' });
    expect(changesOf(streamer.id)).toHaveLength(0);
  });

  test('when the command belongs to another streamer, then 404 and theirs stays', async () => {
    const owner = aStreamer();
    const other = aStreamer();
    await owner.post('/api/commands', { command: 'mine', response: 'm' });

    expect((await other.delete('/api/commands', { command: 'mine' })).status).toBe(404);
    expect((await owner.get('/api/commands')).body.data).toEqual([cmd('mine', 'm')]);
  });

  test('when the name is missing, then 400 with the required message', async () => {
    const answer = await aStreamer().delete('/api/commands', {});

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: 'Command name is required.' });
  });

  test('when the name is an operator object or there is an unknown field, then 400 and nothing is removed', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'keep', response: 'k' });

    const operator = await streamer.delete('/api/commands', { command: { $gt: '' } });
    const unknown = await streamer.delete('/api/commands', { command: 'keep', all: true });

    expect(operator.status).toBe(400);
    expect(operator.body.error).toBe('command must be a string');
    expect(unknown.status).toBe(400);
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('keep', 'k')]);
  });

  test('when there is no token, then 401', async () => {
    expect((await send('DELETE', '/api/commands', { body: JSON.stringify({ command: 'x' }) })).status).toBe(401);
  });
});

describe('user.changed', () => {
  const defaultCommand = {
    command: 'test',
    response: 'Hello! This is a test command. The bot is working correctly!',
  };

  test('when a streamer is created, then they get the default command once, even when the event comes twice', async () => {
    const streamer = aStreamer();

    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.CREATED);
    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.CREATED);
    await waitUntilHandled(streamer.id);

    expect((await streamer.get('/api/commands')).body.data).toEqual([
      cmd(defaultCommand.command, defaultCommand.response),
    ]);
    const changes = changesOf(streamer.id);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.message).toMatchObject({ kind: ChangeKind.ADDED, ...defaultCommand });
  });

  test('when the streamer removed the default command and the event is replayed, then it does not come back', async () => {
    const streamer = aStreamer();
    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.CREATED);
    await eventually(async () => expect((await streamer.get('/api/commands')).body.data).toHaveLength(1));
    expect((await streamer.delete('/api/commands', { command: 'test' })).status).toBe(200);

    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.CREATED);
    await waitUntilHandled(streamer.id);

    expect((await streamer.get('/api/commands')).body.data).toEqual([]);
  });

  test('when a super administrator is created, then they get no default command', async () => {
    const admin = aStreamer(`u-${randomUUID()}`, 'SUPER_ADMIN');

    await publishUserChanged(admin.id, admin.id, UserChangeKind.CREATED, UserRole.SUPER_ADMIN);
    await waitUntilHandled(admin.id);

    expect((await admin.get('/api/commands')).body.data).toEqual([]);
  });

  test('when a streamer is deleted, then their commands go with a REMOVED each, and others keep theirs', async () => {
    const streamer = aStreamer();
    const other = aStreamer();
    await streamer.post('/api/commands', { command: 'one', response: '1' });
    await streamer.post('/api/commands', { command: 'two', response: '2' });
    await other.post('/api/commands', { command: 'one', response: 'x' });

    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.DELETED);

    // a deleted user's token is refused, so the store is read directly
    const repo = createCommandsRepository(platform.store);
    await eventually(async () => expect((await repo.load(streamer.id)).commands).toEqual([]));
    const removed = changesOf(streamer.id).filter(({ message }) => message.kind === ChangeKind.REMOVED);
    expect(removed.map(({ message }) => message.command).sort()).toEqual(['one', 'two']);
    expect((await other.get('/api/commands')).body.data).toEqual([cmd('one', 'x')]);
  });

  test("when a deleted streamer's CREATED is replayed, then the default command does not come back", async () => {
    const streamer = aStreamer();
    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.CREATED);
    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.DELETED);
    await publishUserChanged(streamer.id, streamer.id, UserChangeKind.CREATED);
    await waitUntilHandled(streamer.id);

    expect((await createCommandsRepository(platform.store).load(streamer.id)).commands).toEqual([]);
    // nor does the deleted user's token work again
    expect(await streamer.get('/api/commands')).toEqual({
      status: 401,
      body: { success: false, error: 'Your account has been deactivated' },
    });
  });
});

describe('command.changed and a bus outage', () => {
  /** The recording bus, refusing command.changed while `isDown`, as Kafka does when it cannot be reached. */
  function aFlakyBus() {
    const state = { isDown: true };
    const bus: KickstandBus = {
      publish: (topic, key, message) =>
        state.isDown && topic === 'command.changed'
          ? Promise.reject(new Error('the bus is down'))
          : recorded.bus.publish(topic, key, message),
      subscribe: (topic, group, handler) => recorded.bus.subscribe(topic, group, handler),
      subscribeDeadLetters: (group, handler) => recorded.bus.subscribeDeadLetters(group, handler),
      ping: () => recorded.bus.ping(),
      joining: () => recorded.bus.joining(),
      stop: () => recorded.bus.stop(),
    };
    return { bus, state };
  }

  test('when the bus refuses the change, then the command is stored and a new instance publishes ADDED once', async () => {
    const streamer = aStreamer();
    const flaky = aFlakyBus();
    const failing = await startHttpService(createCommandsService({ ...platform, bus: flaky.bus }), { port: 0 });
    const token = platform.signToken({ userId: streamer.id, username: `name-${streamer.id}`, role: 'USER' });
    try {
      const response = await fetch(`http://127.0.0.1:${failing.port}/api/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ command: 'hello', response: 'hi' }),
      });
      expect(response.status).toBe(201);
      expect(changesOf(streamer.id)).toEqual([]);
    } finally {
      await failing.stop();
    }

    // the next instance to start (here: after the bus came back) relays what the outbox kept
    flaky.state.isDown = false;
    const next = await startHttpService(createCommandsService({ ...platform, bus: flaky.bus }), { port: 0 });
    await next.stop();

    expect(changesOf(streamer.id).map(({ message }) => [message.kind, message.command, message.response])).toEqual([
      [ChangeKind.ADDED, 'hello', 'hi'],
    ]);
    expect((await streamer.get('/api/commands')).body.data).toEqual([cmd('hello', 'hi')]);
  });

  test('when commands are added and removed, then their messages leave in the order of the changes', async () => {
    const streamer = aStreamer();
    await streamer.post('/api/commands', { command: 'hello', response: 'one' });
    await streamer.delete('/api/commands', { command: 'HELLO' });
    await streamer.post('/api/commands', { command: 'Hello', response: 'two' });

    expect(changesOf(streamer.id).map(({ message }) => [message.kind, message.command, message.response])).toEqual([
      [ChangeKind.ADDED, 'hello', 'one'],
      [ChangeKind.REMOVED, 'hello', 'one'],
      [ChangeKind.ADDED, 'Hello', 'two'],
    ]);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseBotrix } from './botrix';
import { parseCsv } from './csv';
import { parseNightbot } from './nightbot';
import { ImportFormatError } from './parsed-command';
import { parseStreamElements } from './streamelements';

const sample = (file: string) => readFileSync(path.join(__dirname, 'samples', file), 'utf8');

describe('parseCsv', () => {
  test('when fields are quoted with commas, doubled quotes and line breaks, then each record has its fields', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi""\nthere"\n\n1,2')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"\nthere'],
      ['1', '2'],
    ]);
  });
});

describe('parseNightbot', () => {
  test('when the JSON sample is read, then each command has its name, message, cooldown and permission', () => {
    const commands = parseNightbot(sample('nightbot.json'));
    expect(commands.map((command) => [command.name, command.settings])).toEqual([
      ['!discord', { globalCooldownSeconds: 5, permission: 'everyone' }],
      ['!hug', { globalCooldownSeconds: 30, permission: 'everyone' }],
      ['!so', { globalCooldownSeconds: 10, permission: 'moderator' }],
      ['!8ball', { globalCooldownSeconds: 5, permission: 'subscriber' }],
    ]);
    expect(commands[1]?.response).toBe('$(user) hugs $(touser)! That is hug number $(count).');
  });

  test('when the CSV sample is read, then quoted messages keep their commas and quotes, twitch_vip is vip', () => {
    const commands = parseNightbot(sample('nightbot.csv'));
    expect(commands.map((command) => command.name)).toEqual(['!discord', '!hug', '!so', '!lurk', '!this is bad']);
    expect(commands[0]?.response).toBe('Join the Discord, $(user): https://discord.gg/example');
    expect(commands[3]).toEqual({
      name: '!lurk',
      response: '$(user) is now lurking. "Enjoy!"',
      settings: { globalCooldownSeconds: 5, permission: 'vip' },
    });
  });

  test('when a level has no Kick badge (regular), then it is kept as exported', () => {
    expect(parseNightbot('[{"name":"!a","message":"b","userLevel":"regular"}]')[0]?.settings).toEqual({
      permissionAsExported: 'regular',
    });
  });

  test('when the CSV has no Name or Message column, then it is refused with the reason', () => {
    expect(() => parseNightbot('Foo,Bar\n1,2')).toThrow(
      new ImportFormatError('The CSV needs a header row with a Name and a Message column.'),
    );
  });

  test('when the JSON is broken, then it is refused as not valid JSON', () => {
    expect(() => parseNightbot('{"commands": [')).toThrow(ImportFormatError);
    expect(() => parseNightbot('{"commands": [')).toThrow(/^The text is not valid JSON/);
  });
});

describe('parseStreamElements', () => {
  test('when the sample is read, then cooldowns, access levels, aliases and enabled are carried over', () => {
    expect(parseStreamElements(sample('streamelements.json'))).toEqual([
      {
        name: 'discord',
        response: 'Join the Discord, ${sender}: https://discord.gg/example',
        settings: {
          enabled: true,
          globalCooldownSeconds: 5,
          userCooldownSeconds: 15,
          aliases: ['dc', 'disc'],
          permission: 'everyone',
        },
      },
      {
        name: 'dice',
        response: '${user} rolled a ${random.1-20}! (roll number ${count})',
        settings: {
          enabled: true,
          globalCooldownSeconds: 5,
          userCooldownSeconds: 30,
          aliases: [],
          permission: 'subscriber',
        },
      },
      {
        name: 'rps',
        response: "${sender} picks ${random.pick 'rock' 'paper' 'scissors'} against ${touser} in ${channel}",
        settings: {
          enabled: false,
          globalCooldownSeconds: 10,
          userCooldownSeconds: 0,
          aliases: [],
          permission: 'moderator',
        },
      },
      {
        name: 'say',
        response: '${sender} says: ${1:} (uptime ${uptime})',
        settings: {
          enabled: true,
          globalCooldownSeconds: 0,
          userCooldownSeconds: 0,
          aliases: ['echo'],
          permission: 'broadcaster',
        },
      },
    ]);
  });

  test('when the access level is 300 (regular) or 400, then regular is kept as exported and 400 is vip', () => {
    const commands = parseStreamElements(
      '[{"command":"a","reply":"x","accessLevel":300},{"command":"b","reply":"y","accessLevel":400}]',
    );
    expect(commands.map((command) => command.settings)).toEqual([
      { permissionAsExported: 'regular (300)' },
      { permission: 'vip' },
    ]);
  });

  test('when the JSON holds no list, then it is refused', () => {
    expect(() => parseStreamElements('{"command":"a"}')).toThrow(
      'The JSON holds no list of commands (expected an array, or one under "commands").',
    );
  });
});

describe('parseBotrix', () => {
  test('when the JSON sample is read, then names, responses and settings are read', () => {
    expect(parseBotrix(sample('botrix.json'))).toEqual([
      {
        name: 'discord',
        response: 'Join the Discord, {user}: https://discord.gg/example',
        settings: {
          enabled: true,
          globalCooldownSeconds: 5,
          userCooldownSeconds: 15,
          aliases: ['dc'],
          permission: 'everyone',
        },
      },
      {
        name: 'roll',
        response: '{user} rolled {random.1-6} for {touser}',
        settings: { enabled: false, globalCooldownSeconds: 10, aliases: [], permission: 'subscriber' },
      },
    ]);
  });

  test('when a table copied from the dashboard is pasted, then the header is skipped and each line is a command', () => {
    expect(parseBotrix(sample('botrix-paste.txt'))).toEqual([
      {
        name: '!discord',
        response: 'Join the Discord, {user}: https://discord.gg/example',
        settings: { globalCooldownSeconds: 5, permission: 'everyone' },
      },
      {
        name: '!hug',
        response: '{user} hugs {touser}! Hug number {count}.',
        settings: { globalCooldownSeconds: 30, permission: 'everyone' },
      },
      {
        name: '!socials',
        response: 'Follow {channel} everywhere: https://example.com/links',
        settings: { globalCooldownSeconds: 10, permission: 'moderator' },
      },
      {
        name: '!followage',
        response: '{user} has followed for {followage}',
        settings: { globalCooldownSeconds: 5, permission: 'everyone' },
      },
    ]);
  });

  test('when lines are "!name response" without tabs, then the first word is the name', () => {
    expect(parseBotrix('!hi Hello {user}!\n\n!bye   See you')).toEqual([
      { name: '!hi', response: 'Hello {user}!', settings: {} },
      { name: '!bye', response: 'See you', settings: {} },
    ]);
  });
});

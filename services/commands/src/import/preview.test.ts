import { readFileSync } from 'node:fs';
import path from 'node:path';
import { previewImport } from './preview';

const sample = (file: string) => readFileSync(path.join(__dirname, 'samples', file), 'utf8');
const none = new Set<string>();

describe('previewImport', () => {
  test('when the Nightbot JSON sample is previewed, then names lose their !, variables are translated and $(1) is marked', () => {
    const rows = previewImport('nightbot', sample('nightbot.json'), none);
    expect(
      rows.map(({ name, originalName, response, untranslatable, problem }) => ({
        name,
        originalName,
        response,
        untranslatable,
        problem,
      })),
    ).toEqual([
      {
        name: 'discord',
        originalName: '!discord',
        response: 'Join the Discord, {user}: https://discord.gg/example',
        untranslatable: [],
        problem: undefined,
      },
      {
        name: 'hug',
        originalName: '!hug',
        response: '{user} hugs {touser}! That is hug number {count}.',
        untranslatable: [],
        problem: undefined,
      },
      {
        name: 'so',
        originalName: '!so',
        response:
          'Go follow $(1) at https://kick.com/$(1) - they were last seen playing $(urlfetch https://decapi.me/twitch/game/$(1))',
        untranslatable: ['$(1)', '$(urlfetch https://decapi.me/twitch/game/$(1))'],
        problem: undefined,
      },
      {
        name: '8ball',
        originalName: '!8ball',
        response: '{user} asked "{args}" in {channel}: the answer is in the stars.',
        untranslatable: [],
        problem: undefined,
      },
    ]);
    expect(rows[1]?.translatedVariables).toEqual([
      { from: '$(user)', to: '{user}' },
      { from: '$(touser)', to: '{touser}' },
      { from: '$(count)', to: '{count}' },
    ]);
  });

  test('when the Nightbot CSV sample has a name with spaces, then that row has the add rule’s message', () => {
    const rows = previewImport('nightbot', sample('nightbot.csv'), none);
    expect(rows.map((row) => [row.name, row.problem])).toEqual([
      ['discord', undefined],
      ['hug', undefined],
      ['so', undefined],
      ['lurk', undefined],
      ['this is bad', 'Command must be a single word (no spaces allowed).'],
    ]);
  });

  test('when the StreamElements sample is previewed, then its settings ride along and ${random.pick} is marked', () => {
    const rows = previewImport('streamelements', sample('streamelements.json'), none);
    expect(rows.map((row) => [row.name, row.response, row.untranslatable])).toEqual([
      ['discord', 'Join the Discord, {user}: https://discord.gg/example', []],
      ['dice', '{touser} rolled a {random:1-20}! (roll number {count})', []],
      [
        'rps',
        "{user} picks ${random.pick 'rock' 'paper' 'scissors'} against {touser} in {channel}",
        ["${random.pick 'rock' 'paper' 'scissors'}"],
      ],
      ['say', '{user} says: {args} (uptime {uptime})', []],
    ]);
    expect(rows[2]?.settings).toEqual({
      enabled: false,
      globalCooldownSeconds: 10,
      userCooldownSeconds: 0,
      aliases: [],
      permission: 'moderator',
    });
  });

  test('when the BotRix paste is previewed, then {followage} is marked', () => {
    const rows = previewImport('botrix', sample('botrix-paste.txt'), none);
    expect(rows.map((row) => [row.name, row.untranslatable, row.problem])).toEqual([
      ['discord', [], undefined],
      ['hug', [], undefined],
      ['socials', [], undefined],
      ['followage', ['{followage}'], undefined],
    ]);
  });

  test('when a name exists already (any letter case), or twice in the export, then the row says so', () => {
    const rows = previewImport('botrix', '!Discord a\n!discord b\n!DISCORD c\n!new d', new Set(['new']));
    expect(rows.map((row) => [row.name, row.problem])).toEqual([
      ['Discord', undefined],
      ['discord', '"discord" is listed more than once in this export; only the first is imported.'],
      ['DISCORD', '"DISCORD" is listed more than once in this export; only the first is imported.'],
      ['new', 'Command "new" already exists. Skipped (remove it first to replace it).'],
    ]);
  });

  test('when a name is too long, reserved or a response is empty or over 500 after translation, then each row says why', () => {
    const long = 'x'.repeat(51);
    const rows = previewImport(
      'nightbot',
      JSON.stringify([
        { name: `!${long}`, message: 'a' },
        { name: '!hero', message: 'a' },
        { name: '!empty', message: '  ' },
        // the length that counts is the translated one: 497 as exported, 496 translated
        { name: '!fits', message: `${'a'.repeat(490)}$(user)` },
        { name: '!long', message: `${'a'.repeat(495)}$(count)$(count)` },
      ]),
      none,
    );
    expect(rows.map((row) => row.problem)).toEqual([
      'Command name must be 50 characters or less.',
      '"$hero" is a built-in command. Choose another name.',
      'Response text is required.',
      undefined,
      'The response is 509 characters after translation; at most 500 are allowed.',
    ]);
  });

  test('when the file starts with a byte order mark, then it is read as without one', () => {
    const rows = previewImport('nightbot', `\uFEFF${sample('nightbot.csv')}`, none);
    expect(rows.map((row) => row.name)).toEqual(['discord', 'hug', 'so', 'lurk', 'this is bad']);
  });

  test('when the text holds no command, then it is refused', () => {
    expect(() => previewImport('streamelements', '[]', none)).toThrow(
      'No commands were found in this text. Check that you chose the right bot.',
    );
  });
});

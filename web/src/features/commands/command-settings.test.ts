import { defaultCommandSettings } from '@kickstand/api-contract';
import { aliasesProblem, cooldownProblem, formatSeconds, parseAliases, settingsSummary } from './command-settings';

describe('command settings on the dashboard', () => {
  test.each([
    [0, '0 s'],
    [59, '59 s'],
    [60, '1 min'],
    [90, '1 min 30 s'],
    [3600, '1 h'],
    [86_400, '24 h'],
    [3661, '1 h 1 min 1 s'],
  ])('when a cooldown is %d seconds, then it reads %j', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });

  test('when aliases are typed with commas, blanks and $, then they are the names alone', () => {
    expect(parseAliases(' $dc,server  $$x ,, ')).toEqual(['dc', 'server', '$x']);
  });

  test('when aliases break a rule, then the first problem is named', () => {
    expect(aliasesProblem(['dc', 'DISCORD'], 'discord')).toBe('Alias "DISCORD" repeats a name of this command.');
    expect(aliasesProblem(['$x'], 'discord')).toBe(
      'Alias "$x" must be one word of letters, numbers, hyphens and underscores, at most 50 characters.',
    );
    expect(
      aliasesProblem(
        Array.from({ length: 11 }, (_, i) => `a${i}`),
        'discord',
      ),
    ).toBe('A command can have at most 10 aliases.');
    expect(aliasesProblem(['dc', 'server'], 'discord')).toBeUndefined();
  });

  test.each(['', '-1', '1.5', '86401', 'x'])('when a cooldown is typed as %j, then it is refused', (typed) => {
    expect(cooldownProblem(typed)).toBe('Cooldowns are whole seconds from 0 to 86400.');
  });

  test('when the settings are the defaults, then the summary is everyone with the 1 s cooldown, mods exempt', () => {
    expect(settingsSummary(defaultCommandSettings)).toBe('Everyone · cooldown 1 s · mods exempt');
    expect(settingsSummary({ ...defaultCommandSettings, globalCooldownSeconds: 0, permission: 'broadcaster' })).toBe(
      'Broadcaster only · no cooldown',
    );
  });
});

import { botrixDialect, nightbotDialect, streamElementsDialect, translateVariables } from './variables';

describe('translateVariables, Nightbot', () => {
  test('when a response uses $(user), $(touser), $(query), $(channel) and $(count), then each becomes Kickstand’s', () => {
    expect(
      translateVariables('$(user) hugs $(touser) for "$(query)" in $(channel) #$(count)', nightbotDialect),
    ).toEqual({
      response: '{user} hugs {touser} for "{args}" in {channel} #{count}',
      translated: [
        { from: '$(user)', to: '{user}' },
        { from: '$(touser)', to: '{touser}' },
        { from: '$(query)', to: '{args}' },
        { from: '$(channel)', to: '{channel}' },
        { from: '$(count)', to: '{count}' },
      ],
      untranslatable: [],
    });
  });

  test('when a variable has no equivalent, even with a nested one, then it is kept whole as text and reported once', () => {
    expect(
      translateVariables(
        '$(1) plays $(urlfetch https://x.example/$(1)) $(urlfetch https://x.example/$(1))',
        nightbotDialect,
      ),
    ).toEqual({
      response: '$(1) plays $(urlfetch https://x.example/$(1)) $(urlfetch https://x.example/$(1))',
      translated: [],
      untranslatable: ['$(1)', '$(urlfetch https://x.example/$(1))'],
    });
  });

  test('when a $( is never closed, then the text stays as written', () => {
    expect(translateVariables('smile $(user', nightbotDialect)).toEqual({
      response: 'smile $(user',
      translated: [],
      untranslatable: [],
    });
  });
});

describe('translateVariables, StreamElements', () => {
  test('when a response uses ${sender}, ${user}, ${1:} and ${random.1-20}, then they become {user}, {touser}, {args}, {random:1-20}', () => {
    expect(translateVariables('${sender} to ${user}: ${1:} ${random.1-20}', streamElementsDialect)).toEqual({
      response: '{user} to {touser}: {args} {random:1-20}',
      translated: [
        { from: '${sender}', to: '{user}' },
        { from: '${user}', to: '{touser}' },
        { from: '${1:}', to: '{args}' },
        { from: '${random.1-20}', to: '{random:1-20}' },
      ],
      untranslatable: [],
    });
  });

  test('when a response uses ${random.pick …}, ${followage} or a reversed range, then they are kept and marked', () => {
    expect(
      translateVariables("${random.pick 'a' 'b'} ${followage} ${random.9-1}", streamElementsDialect).untranslatable,
    ).toEqual(["${random.pick 'a' 'b'}", '${followage}', '${random.9-1}']);
  });

  test('when a StreamElements response uses ${uptime}, ${title} or ${game}, then they become the stream variables', () => {
    expect(translateVariables('${uptime} ${title} ${game}', streamElementsDialect)).toEqual({
      response: '{uptime} {title} {game}',
      translated: [
        { from: '${uptime}', to: '{uptime}' },
        { from: '${title}', to: '{title}' },
        { from: '${game}', to: '{game}' },
      ],
      untranslatable: [],
    });
  });
});

describe('translateVariables, BotRix', () => {
  test('when a response is written with {user}-style variables, then Kickstand’s own stay and are not listed as translated', () => {
    expect(translateVariables('{user} rolled {random.1-6} for {target} ({followage})', botrixDialect)).toEqual({
      response: '{user} rolled {random:1-6} for {touser} ({followage})',
      translated: [
        { from: '{random.1-6}', to: '{random:1-6}' },
        { from: '{target}', to: '{touser}' },
      ],
      untranslatable: ['{followage}'],
    });
  });
});

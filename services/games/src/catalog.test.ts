import { builtInCommandNames } from '@kickstand/chat-language';
import { commandCatalog } from './catalog';

describe('commandCatalog', () => {
  test('when the catalogue is listed, then its commands are exactly the built-in names the bot leaves alone', () => {
    const catalogued = commandCatalog.categories.flatMap((category) =>
      category.commands.map((command) => command.name.replace(/^\$/, '').toLowerCase()),
    );
    expect([...catalogued].sort()).toEqual([...builtInCommandNames].sort());
  });
});

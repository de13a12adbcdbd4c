// The layout's lint rules (eslint.config.js, docs/layout.md) fail where they should: each case
// lints a small piece of code as if it stood at a path in the repo, with the project's own config.
const fs = require('node:fs');
const path = require('node:path');
const { describe, expect, test } = require('@jest/globals');
const { ESLint } = require('eslint');

const root = path.join(__dirname, '..');
// the config is passed in rather than found by ESLint, whose loader imports it dynamically (not under jest)
const config = { cwd: root, overrideConfigFile: true, baseConfig: require('../eslint.config.js') };
const eslint = new ESLint(config);

/** The [rule, line] pairs ESLint reports for `code` at `file` (relative to the repo root). */
async function problems(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((message) => [message.ruleId, message.line]);
}

describe('the layout rules', () => {
  test('when two modules import each other, then import-x/no-cycle reports both', async () => {
    // the fixtures are outside what `npm run lint` reads (ignored in eslint.config.js)
    const withFixtures = new ESLint({ ...config, ignore: false });
    const found = [];
    for (const name of ['first.ts', 'second.ts']) {
      const file = path.join(root, 'scripts/lint-fixtures/cycle', name);
      const [result] = await withFixtures.lintText(fs.readFileSync(file, 'utf8'), { filePath: file });
      found.push([name, result.messages.map((message) => `${message.ruleId}: ${message.message}`)]);
    }
    expect(found).toEqual([
      ['first.ts', ['import-x/no-cycle: Dependency cycle detected']],
      ['second.ts', ['import-x/no-cycle: Dependency cycle detected']],
    ]);
  });

  test.each([
    [
      'a service imports another service',
      'services/bot-runner/src/x.ts',
      "import { createCommandsService } from '@kickstand/commands';",
    ],
    [
      'a shared package imports a service',
      'packages/platform/src/x.ts',
      "import { createGamesService } from '@kickstand/games';",
    ],
    ['the gateway imports a service', 'gateway/src/x.ts', "import { createAuthService } from '@kickstand/auth';"],
    ['the SPA imports server code', 'web/src/x.ts', "import { createKafkaBus } from '@kickstand/platform/bus';"],
    ['the SPA imports a service', 'web/src/x.ts', "import { commandCatalog } from '@kickstand/games';"],
    [
      'a service imports the single-machine app',
      'services/games/src/x.ts',
      "import { startSingleMachine } from '@kickstand/single-machine';",
    ],
    [
      'a service imports the sandbox',
      'services/kick-link/src/x.ts',
      "import { createKickSandbox } from '@kickstand/kick-sandbox';",
    ],
    [
      'a test imports the sandbox outside testing/',
      'services/kick-link/src/x.test.ts',
      "import { createKickSandbox } from '@kickstand/kick-sandbox';",
    ],
  ])('when %s, then no-restricted-imports reports it', async (_case, file, code) => {
    expect(await problems(file, `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)[1]}];\n`)).toEqual([
      ['no-restricted-imports', 1],
    ]);
  });

  test.each([
    [
      'a test harness in testing/ imports the sandbox',
      'services/kick-link/src/testing/x.ts',
      "import { createKickSandbox } from '@kickstand/kick-sandbox';",
    ],
    [
      'the single-machine app imports a service and the sandbox',
      'apps/single-machine/src/x.ts',
      "import { createKickSandbox } from '@kickstand/kick-sandbox';\nimport { createGamesService } from '@kickstand/games';",
    ],
    [
      'the SPA imports the socket event names',
      'web/src/x.ts',
      "import { socketEvents } from '@kickstand/platform/socket-events';",
    ],
    [
      'a service imports the $ language',
      'services/bot-runner/src/x.ts',
      "import { commandKey } from '@kickstand/chat-language';",
    ],
  ])('when %s, then nothing is reported', async (_case, file, code) => {
    const names = [...code.matchAll(/\{ (\w+) \}/g)].map((match) => match[1]);
    expect(await problems(file, `${code}\nexport const used = [${names.join(', ')}];\n`)).toEqual([]);
  });

  test('when a service reaches into another package by path, then import-x/no-relative-packages reports it', async () => {
    const code = "import { commandKey } from '../../commands/src/commands';\nexport const used = [commandKey];\n";
    expect(await problems('services/bot-runner/src/x.ts', code)).toEqual([['import-x/no-relative-packages', 1]]);
  });

  test('when a web component calls a hook conditionally, then react-hooks/rules-of-hooks reports it', async () => {
    const code = [
      "import { useState } from 'react';",
      'export function Counter({ show }: { show: boolean }) {',
      '  if (show) {',
      '    const [count] = useState(0);',
      '    return count;',
      '  }',
      '  return null;',
      '}',
      '',
    ].join('\n');
    expect(await problems('web/src/counter.tsx', code)).toEqual([['react-hooks/rules-of-hooks', 4]]);
  });

  test('when a platform function is longer than 80 lines, then max-lines-per-function reports it; in a test it is allowed', async () => {
    const body = Array.from({ length: 81 }, (_, i) => `  total += ${i};`).join('\n');
    const code = `export function long(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    expect(await problems('packages/platform/src/store/x.ts', code)).toEqual([['max-lines-per-function', 1]]);
    expect(await problems('packages/platform/src/store/x.test.ts', code)).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { npmStartEnv, npmStartNodeFlags } from './npm-start-flags';

test('when the bench starts single-machine mode, then it gives node the flags and environment npm start gives it', () => {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const env = Object.entries(npmStartEnv).map(([name, value]) => `${name}=\${${name}:-${value}}`);
  expect(manifest.scripts.start).toBe(`${env.join(' ')} exec node ${npmStartNodeFlags.join(' ')} scripts/start.js`);
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { npmStartNodeFlags } from './npm-start-flags';

test('when the bench starts single-machine mode, then it gives node the flags npm start gives it', () => {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(manifest.scripts.start).toBe(`node ${npmStartNodeFlags.join(' ')} scripts/start.js`);
});

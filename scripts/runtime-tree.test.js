const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { describe, expect, test } = require('@jest/globals');
const { assemble, runtimeWorkspaces } = require('./runtime-tree');
const { entries } = require('./run-service');

const repoRoot = path.join(__dirname, '..');

/** Writes `files` (path → content; a content starting with `->` is a symlink) under a fresh directory. */
function checkout(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-tree-'));
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    if (content.startsWith('->')) fs.symlinkSync(content.slice(2), path.join(root, file));
    else fs.writeFileSync(path.join(root, file), content);
  }
  return root;
}

/** Every file and link under `dir`, relative, sorted. */
function listing(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const json = (value) => JSON.stringify(value);

describe('the production image tree (scripts/runtime-tree.js)', () => {
  test('when a checkout is assembled, then only manifests, dist without tests or testing/, the SPA and node_modules go in', () => {
    const root = checkout({
      'package.json': json({ workspaces: ['packages/*', 'services/*', 'tools/*', 'web'] }),
      'scripts/run-service.js': '',
      'scripts/start.js': '',
      'packages/core/package.json': json({ name: '@k/core' }),
      'packages/core/src/index.ts': '',
      'packages/core/dist/index.js': '',
      'packages/core/dist/index.test.js': '',
      'packages/core/dist/index.test.d.ts': '',
      'packages/core/dist/testing/kit.js': '',
      'packages/core/dist/.tsbuildinfo': '',
      'services/svc/package.json': json({ name: '@k/svc', dependencies: { '@k/core': '0', express: '5' } }),
      'services/svc/src/main.ts': '',
      'services/svc/src/main.test.ts': '',
      'services/svc/dist/main.js': '',
      'services/svc/node_modules/lib/index.js': '',
      'tools/bench/package.json': json({ name: '@k/bench', dependencies: { '@k/core': '0' } }),
      'tools/bench/dist/main.js': '',
      'web/package.json': json({ name: '@k/web' }),
      'web/src/app.tsx': '',
      'web/e2e/run.mjs': '',
      'web/dist/index.html': '',
      'node_modules/express/index.js': '',
      'node_modules/express/testing/helper.js': '',
      'node_modules/@k/core': '->../../packages/core',
      'node_modules/@k/bench': '->../../tools/bench',
    });
    const dest = path.join(root, 'out');

    expect(assemble(root, dest, { svc: 'services/svc/dist/main.js' })).toEqual(['packages/core', 'services/svc']);

    expect(listing(dest)).toEqual([
      'node_modules/@k/core',
      'node_modules/express/index.js',
      'node_modules/express/testing/helper.js',
      'package.json',
      'packages/core/dist/index.js',
      'packages/core/package.json',
      'scripts/run-service.js',
      'services/svc/dist/main.js',
      'services/svc/node_modules/lib/index.js',
      'services/svc/package.json',
      'web/dist/index.html',
    ]);
    expect(fs.readFileSync(path.join(dest, 'node_modules/@k/core/dist/index.js'), 'utf8')).toBe('');
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('when the repo is read, then the image holds every launched part and what they import, and no dev tool or the SPA sources', () => {
    expect(runtimeWorkspaces(repoRoot, entries)).toEqual([
      'apps/single-machine',
      'gateway',
      'packages/api-contract',
      'packages/chat-language',
      'packages/platform',
      'proto',
      'services/auth',
      'services/bot-runner',
      'services/commands',
      'services/games',
      'services/kick-link',
      'services/realtime',
      'tools/kick-sandbox',
    ]);
  });

  test('when the Dockerfile is read, then its last stage copies only the runtime tree, assembled after the dev dependencies are pruned', () => {
    const dockerfile = fs.readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    const build = stages.at(-2) ?? '';
    const last = stages.at(-1) ?? '';
    const copies = last.split('\n').filter((line) => /^COPY /.test(line));
    expect(copies).toEqual(['COPY --from=build --chown=node:node /runtime /app']);
    expect(last).not.toMatch(/^(ADD|RUN npm|RUN npx)/m);
    const pruned = build.indexOf('npm prune --omit=dev');
    const assembled = build.indexOf('node scripts/runtime-tree.js /runtime');
    expect(pruned).toBeGreaterThan(0);
    expect(assembled).toBeGreaterThan(pruned);
  });
});

// Compiles what changed (tsc -b is incremental) and builds the web app when its sources are newer
// than web/dist. Shared by `npm start` and `npm run start:distributed`.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function run(command, args, label, prefix) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n${prefix}: ${label} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

function newestChange(entry) {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
}

function webNeedsBuild() {
  const built = path.join(root, 'web', 'dist', 'index.html');
  if (!fs.existsSync(built)) return true;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((name) =>
    path.join(root, 'web', name),
  );
  return Math.max(...sources.filter(fs.existsSync).map(newestChange)) > fs.statSync(built).mtimeMs;
}

function buildIfNeeded(prefix) {
  console.log(`${prefix}: compiling the services (incremental)…`);
  run(process.execPath, [require.resolve('typescript/bin/tsc'), '-b'], 'compiling', prefix);
  if (webNeedsBuild()) {
    console.log(`${prefix}: building the web app…`);
    run(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['run', 'build', '-w', '@kickstand/web'],
      'building the web app',
      prefix,
    );
  }
}

module.exports = { buildIfNeeded, root };

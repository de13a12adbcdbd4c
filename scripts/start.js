#!/usr/bin/env node
// `npm start`: build what is missing or out of date, then run the gateway, every service and the
// Kick sandbox in this one Node process (single-machine mode).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function run(command, args, label) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\nnpm start: ${label} failed (exit ${result.status ?? result.signal}).`);
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
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((name) => path.join(root, 'web', name));
  return Math.max(...sources.filter(fs.existsSync).map(newestChange)) > fs.statSync(built).mtimeMs;
}

// tsc -b is incremental: projects whose sources did not change are skipped in a second or two.
console.log('npm start: compiling the services (incremental)…');
run(process.execPath, [require.resolve('typescript/bin/tsc'), '-b'], 'compiling');
if (webNeedsBuild()) {
  console.log('npm start: building the web app…');
  run(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    ['run', 'build', '-w', '@kickstand/web'],
    'building the web app',
  );
}
require(path.join(root, 'packages', 'single-machine', 'dist', 'main.js'));

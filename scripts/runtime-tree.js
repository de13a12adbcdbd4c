#!/usr/bin/env node
// Assembles what the production image runs, and nothing else (the Dockerfile's last stage copies
// only this tree): the root manifest; node_modules as `npm prune --omit=dev` left it (the root's
// and the workspaces' own); the launcher (scripts/run-service.js); for every workspace a launched
// part needs (run-service.js's entry points and, transitively, their @kickstand dependencies) its
// package.json and dist/; the built SPA (web/dist). Left out: sources, tests (*.test.*), test
// harnesses (testing/ folders, the platform's test kit included), the dev tools under tools/
// (bench, schemathesis, kafka, secantus, k8s-check), the e2e suite and the other scripts.
// Usage: node scripts/runtime-tree.js <dest>   (in the Dockerfile, after `npm prune --omit=dev`)
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');

/** Directory of every workspace, by package name. */
function workspaceDirs(root) {
  const { workspaces } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dirs = new Map();
  for (const pattern of workspaces) {
    const candidates = pattern.endsWith('/*')
      ? fs
          .readdirSync(path.join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(pattern.slice(0, -2), entry.name))
      : [pattern];
    for (const dir of candidates) {
      const manifest = path.join(root, dir, 'package.json');
      if (fs.existsSync(manifest)) dirs.set(JSON.parse(fs.readFileSync(manifest, 'utf8')).name, dir);
    }
  }
  return dirs;
}

/** The workspaces the launched parts need: their own and, transitively, their @kickstand dependencies. */
function runtimeWorkspaces(root, entries) {
  const dirs = workspaceDirs(root);
  const nameOfDir = new Map([...dirs].map(([name, dir]) => [dir, name]));
  const pending = Object.values(entries).map((entry) => nameOfDir.get(entry.split('/dist/')[0]));
  const needed = new Set();
  while (pending.length > 0) {
    const name = pending.pop();
    if (!name || needed.has(name)) continue;
    needed.add(name);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, dirs.get(name), 'package.json'), 'utf8'));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dirs.has(dependency)) pending.push(dependency);
    }
  }
  return [...needed].map((name) => dirs.get(name)).sort();
}

/** Tests and test harnesses never go into the image (outside node_modules, which is npm's). */
const isTestFile = (file) => /\.test\.[cm]?[jt]sx?(\.map)?$|\.test\.d\.[cm]?ts(\.map)?$/.test(file);
const keep = (source) =>
  source.includes(`${path.sep}node_modules${path.sep}`) ||
  (path.basename(source) !== 'testing' && !isTestFile(path.basename(source)) && !source.endsWith('.tsbuildinfo'));

function copy(root, relative, dest) {
  fs.cpSync(path.join(root, relative), path.join(dest, relative), {
    recursive: true,
    verbatimSymlinks: true,
    filter: keep,
  });
}

/** npm links each workspace into node_modules; the links to those left out (web, bench…) would point nowhere. */
function removeDanglingLinks(modules) {
  if (!fs.existsSync(modules)) return;
  for (const entry of fs.readdirSync(modules, { withFileTypes: true })) {
    const at = path.join(modules, entry.name);
    if (entry.isSymbolicLink() && !fs.existsSync(at)) fs.rmSync(at);
    else if (entry.isDirectory() && entry.name.startsWith('@')) removeDanglingLinks(at);
  }
}

/** Copies the runtime tree of the checkout at `root` to `dest`; `entries` as run-service.js's. */
function assemble(root, dest, entries) {
  fs.mkdirSync(dest, { recursive: true });
  const workspaces = runtimeWorkspaces(root, entries);
  const pieces = ['package.json', 'scripts/run-service.js', 'web/dist', 'node_modules'];
  for (const dir of workspaces) {
    pieces.push(path.join(dir, 'package.json'), path.join(dir, 'dist'));
    // a workspace's own node_modules: where npm put a version other than the hoisted one
    if (fs.existsSync(path.join(root, dir, 'node_modules'))) pieces.push(path.join(dir, 'node_modules'));
  }
  for (const piece of pieces) copy(root, piece, dest);
  removeDanglingLinks(path.join(dest, 'node_modules'));
  return workspaces;
}

module.exports = { assemble, runtimeWorkspaces };

if (require.main === module) {
  const [dest] = process.argv.slice(2);
  if (!dest) {
    console.error('usage: node scripts/runtime-tree.js <dest>');
    process.exit(2);
  }
  const workspaces = assemble(repoRoot, path.resolve(dest), require('./run-service').entries);
  console.log(`runtime-tree: ${workspaces.length} workspaces into ${dest}: ${workspaces.join(', ')}`);
}

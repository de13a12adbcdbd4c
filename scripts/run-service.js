#!/usr/bin/env node
// The container's entry point: `node scripts/run-service.js <name>` runs one compiled part of
// Kickstand, so one image serves every Deployment (the name is the container's command).
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const entries = {
  gateway: 'gateway/dist/main.js',
  auth: 'services/auth/dist/main.js',
  commands: 'services/commands/dist/main.js',
  'kick-link': 'services/kick-link/dist/main.js',
  'bot-runner': 'services/bot-runner/dist/main.js',
  games: 'services/games/dist/main.js',
  realtime: 'services/realtime/dist/main.js',
  'kick-sandbox': 'tools/kick-sandbox/dist/main.js',
  'single-machine': 'apps/single-machine/dist/main.js',
};

module.exports = { entries };

if (require.main === module) {
  const name = process.argv[2];
  if (!name || !(name in entries)) {
    console.error(`usage: run-service.js <${Object.keys(entries).join('|')}>`);
    process.exit(2);
  }
  require(path.join(root, entries[name]));
}

#!/usr/bin/env node
// `npm start`: build what is missing or out of date, then run the gateway, every service and the
// Kick sandbox in this one Node process (single-machine mode).
const path = require('node:path');
const { buildIfNeeded, root } = require('./build-if-needed');

buildIfNeeded('npm start');
require(path.join(root, 'apps', 'single-machine', 'dist', 'main.js'));

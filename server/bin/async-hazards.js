#!/usr/bin/env node
// Launcher for the async-hazards CLI; committed so npm links the bin before anything is built.
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const cli = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  process.stderr.write('async-hazards: the CLI is not built yet; run `npm run build` in the repository first.\n');
  process.exit(2);
}
require(cli);

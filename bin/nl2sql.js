#!/usr/bin/env node
// `nl2sql`: in a checkout (src/ and the dev dependencies present) it runs the TypeScript sources
// through @swc-node/register, so it is never behind them; an installed package runs dist/.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const source = join(root, 'src', 'cli', 'main.ts');
let fromSource = existsSync(source);
if (fromSource) {
  try {
    require.resolve('@swc-node/register', { paths: [root] });
  } catch {
    fromSource = false;
  }
}
if (fromSource) {
  // The project's compiler options (decorators) wherever the command runs from.
  process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || join(root, 'tsconfig.json');
  require(require.resolve('@swc-node/register', { paths: [root] }));
  require(source).main();
} else {
  require(join(root, 'dist', 'cli', 'main.js')).main();
}

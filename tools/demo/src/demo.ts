#!/usr/bin/env node
// `pnpm demo`: runs the offline demo in a fresh temporary directory and leaves it for a look around.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runDemo } from './run-demo.js';

const dir = mkdtempSync(path.join(tmpdir(), 'skein-demo-'));
const code = await runDemo({ dir, out: (text) => process.stdout.write(text), env: process.env });
process.stdout.write(`\nEverything the demo made is in ${dir} (remove it with: rm -rf ${dir}).\n`);
process.exitCode = code;

// Regenerates config.schema.json from the built package: `pnpm --filter @skein/config build && pnpm --filter @skein/config generate-schema`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { configJsonSchema } from '../dist/index.js';

const target = path.join(import.meta.dirname, '..', 'config.schema.json');
writeFileSync(target, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target}`);

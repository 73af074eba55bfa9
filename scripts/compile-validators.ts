/**
 * Part of `npm run build`: writes each schema's validator as a standalone module (harness/schema/validator.ts
 * says why and how a process finds it). Prints one line per schema.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRECOMPILED_SCHEMAS } from '../grading/precompiled-schemas.js';
import { compiledModulePath, standaloneSource } from '../harness/schema/validator.js';

const written: string[] = [];
for (const spec of PRECOMPILED_SCHEMAS) {
  const file = compiledModulePath(spec.name);
  mkdirSync(dirname(file), { recursive: true });
  const source = standaloneSource(spec);
  // Whole or not at all: a process may load it while the build runs.
  writeFileSync(`${file}.${process.pid}.tmp`, source);
  renameSync(`${file}.${process.pid}.tmp`, file);
  written.push(`${spec.name} (${(source.length / 1024).toFixed(0)} KB)`);
}
console.log(`compiled validators: ${written.join(', ')}`);

/** The game records a `referee play --save DIR` wrote, in file-name order (for the Botzone tests). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameRecord } from '../../harness/referee/record.js';

export function savedRecords(dir: string): GameRecord[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as GameRecord);
}

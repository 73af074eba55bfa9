/**
 * The type check from a cached start-up snapshot answers exactly as plain tsc: the first check builds the
 * snapshot while it answers, the next one runs from it, and a damaged snapshot is deleted and tsc answers.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveSubmission } from '../../harness/submission/resolve.js';
import { typeCheck } from '../../harness/submission/typecheck.js';
import { scratch } from '../sandbox/support.js';

const SOURCE = `import type { Board } from 'referee';
export class AIPlayer {
  constructor(private readonly color: 'X' | 'O') {}
  getMove(board: Board): string {
    const count: number = 'many';
    console.log(process.pid, count);
    return board.getLegalActions(this.color)[0] + board.noSuchMethod();
  }
}
`;

let cache: string;
beforeAll(() => {
  // Empty, not seeded with the suite's snapshot: this file watches the snapshot being built.
  cache = scratch('typecheck-cache');
  process.env.REFEREE_CACHE_DIR = cache;
});
afterEach(() => {
  delete process.env.REFEREE_TYPECHECK_SNAPSHOT;
});

const blobs = () => readdirSync(cache).filter((name) => name.endsWith('.blob'));

/** Waits for the detached snapshot build, however long a loaded machine takes (jest's hang catcher ends a hang). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((done) => setTimeout(done, 100));
}

test('snapshot build, snapshot run and plain tsc report the same problems; a damaged snapshot falls back', async () => {
  const folder = scratch('typecheck');
  writeFileSync(join(folder, 'AIPlayer.ts'), SOURCE);
  const submission = resolveSubmission(join(folder, 'AIPlayer.ts'));

  process.env.REFEREE_TYPECHECK_SNAPSHOT = '0';
  const plain = await typeCheck(submission, 'reversi');
  expect(plain.ran).toBe(true);
  expect(plain.problems.map((p) => [p.line, p.text.slice(0, 6)])).toEqual([[5, 'TS2322'], [7, 'TS2339']]);
  expect(blobs()).toEqual([]);
  delete process.env.REFEREE_TYPECHECK_SNAPSHOT;

  const building = await typeCheck(submission, 'reversi');
  expect(building).toEqual(plain);
  await until(() => blobs().length === 1);

  const fromSnapshot = await typeCheck(submission, 'reversi');
  expect(fromSnapshot).toEqual(plain);
  expect(blobs().length).toBe(1);

  // The snapshot holds the file as it was parsed at build time: the same path with new text is parsed again.
  writeFileSync(join(folder, 'AIPlayer.ts'), SOURCE.replace("const count: number = 'many';", 'const count: number = 2;'));
  const edited = await typeCheck(submission, 'reversi');
  expect(edited.problems.map((p) => [p.line, p.text.slice(0, 6)])).toEqual([[7, 'TS2339']]);
  process.env.REFEREE_TYPECHECK_SNAPSHOT = '0';
  expect(await typeCheck(submission, 'reversi')).toEqual(edited);
  delete process.env.REFEREE_TYPECHECK_SNAPSHOT;
  writeFileSync(join(folder, 'AIPlayer.ts'), SOURCE);

  const blob = join(cache, blobs()[0]);
  writeFileSync(blob, 'not a snapshot');
  expect(await typeCheck(submission, 'reversi')).toEqual(plain);
  expect(existsSync(blob)).toBe(false);
}, 900_000); // a hang catcher, not a speed limit: five type checks and a snapshot build took 141-297 s at load 20-30

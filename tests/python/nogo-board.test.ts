/**
 * The NoGo Python Board's rules on 81-bit integers answer as its flood-fill walk (kept for cells the integers cannot
 * hold) on seeded random games: legal cells of both colours at every ply, every cell's legality every third
 * position, move() refusing what is not legal, get_winner; and `_cells` holding True, 1.0 or a list subclass
 * answers as the walk does (tests/python/nogo_board_driver.py). The TS Board = the Python Board: consistency.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { findPython, pythonRuntimeDir } from '../../harness/sandbox/python-runtime.js';

test('NoGo Python Board: the integer rules = the walk on 30 seeded games, and odd cells fall back to the walk', () => {
  const python = findPython();
  expect(python).not.toBeNull();
  const output = execFileSync(python?.path ?? 'python3', ['-I', '-B', resolve('tests/python/nogo_board_driver.py'), pythonRuntimeDir(), '30'], {
    encoding: 'utf8',
  });
  expect(output.trim()).toMatch(/^ok \d+$/);
  expect(Number(output.trim().split(' ')[1])).toBeGreaterThan(30 * 40);
}, 120_000);

/**
 * The fast Python Reversi Board answers exactly as board.py as written (PlainBoard) on seeded random games, with
 * what students do beside the hot calls (tests/python/fast_board_driver.py): reading and writing `_board`,
 * deepcopy / copy.copy, moving while a get_legal_actions generator is open, odd actions and colours; and the
 * host's tamper fingerprint sees every change and no mere reading.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { findPython, pythonRuntimeDir } from '../../harness/sandbox/python-runtime.js';
import { sized } from '../setup/long.js';

const GAMES = sized(300, 2000);

test(`fast Board == board.py on ${GAMES} seeded games, every method, _board reads and writes, copies, open generators`, () => {
  const python = findPython();
  expect(python).not.toBeNull();
  const output = execFileSync(
    python?.path ?? 'python3',
    ['-I', '-B', resolve('tests/python/fast_board_driver.py'), pythonRuntimeDir(), String(GAMES)],
    { encoding: 'utf8' },
  );
  expect(output.trim()).toMatch(/^ok \d+$/);
  expect(Number(output.trim().split(' ')[1])).toBeGreaterThan(GAMES * 100);
}, 120_000);

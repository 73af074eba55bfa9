/** board.py's names and small behaviours on the Python Reversi Board (tests/python/board_api.py asserts them). */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { findPython, pythonRuntimeDir } from '../../harness/sandbox/python-runtime.js';

test("the Python Board has board.py's API: from board import Board, deepcopy, generator, board_num …", () => {
  const python = findPython();
  expect(python).not.toBeNull();
  const output = execFileSync(python?.path ?? 'python3', ['-I', '-B', resolve('tests/python/board_api.py'), pythonRuntimeDir()], {
    encoding: 'utf8',
  });
  expect(output.trim()).toBe('ok');
});

test('the interpreter is the system one, found deliberately (not a PATH shim)', () => {
  const python = findPython();
  expect(python?.source).not.toBe('PATH');
  expect(python?.version).toMatch(/^3\.(8|9|\d\d)\./);
});

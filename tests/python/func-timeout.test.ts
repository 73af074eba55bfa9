/**
 * The bundled func_timeout (harness/sandbox/python/func_timeout.py) against the documented behaviour of the PyPI
 * package func_timeout 4.3.5: the stop is raised in the call's thread again every 2 s until it dies; SystemExit
 * inside returns None; FunctionTimedOut carries timedOutAfter/timedOutFunction/timedOutArgs/timedOutKwargs and the
 * package's message form. Runs the Python script in tests/python with the grader's interpreter.
 */
import { resolve } from 'node:path';
import { findPython } from '../../harness/sandbox/python-runtime.js';
import { runToEnd } from '../setup/children.js';

const python = findPython();
const run = python ? test : test.skip;

run('func_timeout behaves as func_timeout 4.3.5 documents', async () => {
  // To its own end however loaded the machine (a 30 s cut failed working runs at load); a hang is jest's timeout.
  const script = await runToEnd(python!.path, ['-I', '-B', resolve('tests/python/func_timeout_behaviour.py'), resolve('harness/sandbox/python')], process.env);
  expect({ code: script.code, stderr: script.stderr }).toEqual({ code: 0, stderr: '' });
  const seen = JSON.parse(script.stdout);
  expect(seen.returns).toEqual({ returned: '3' });
  expect(seen.threads_after_return).toBe(0);
  expect(seen.same_exception_object).toBe(true);
  expect(seen.system_exit).toEqual({ returned: 'None' });
  expect(seen.timed_out).toEqual({
    type: 'FunctionTimedOut',
    is_base_exception_only: true,
    timedOutAfter: 0.05,
    function: 'search',
    args: [1, 2],
    kwargs: { k: 3 },
    msg: "Function search (args=(1, 2)) (kwargs={'k': 3}) timed out after 0.050000 seconds.\n",
    str: "Function search (args=(1, 2)) (kwargs={'k': 3}) timed out after 0.050000 seconds.\n",
    getMsg: "Function search (args=(1, 2)) (kwargs={'k': 3}) timed out after 0.050000 seconds.\n",
  });
  expect(seen.default_message).toBe('Function Unknown Function (args=None) (kwargs=None) timed out after Unknown seconds.\n');
  // Swallowed once, raised again (every 2 s) until the thread died: one leftover right after, none later.
  expect(seen.leftover_right_after).toBe(1);
  expect(seen.leftover_later).toBe(0);
  expect(seen.stop_exceptions_caught).toHaveLength(1);
  const [name, isTimedOut, isExactlyTheBase, after] = seen.stop_exceptions_caught[0];
  expect(name).toMatch(/^FunctionTimedOut-?\d+$/);
  expect([isTimedOut, isExactlyTheBase, after]).toEqual([true, false, 0.05]);
  expect(seen.retry_unlimited).toBe('late');
  expect(seen.decorated_fast).toEqual({ returned: "'done'" });
  expect(seen.decorated_slow).toMatchObject({ raised: 'FunctionTimedOut', message: expect.stringMatching(/^Function slow \(args=\(0\.5,\)\)/) });
  expect(seen.decorated_computed).toEqual({ returned: "'scaled'" });
  expect(seen.decorated_override).toEqual({ returned: "'overridden'" });
  expect(seen.bad_timeout).toMatchObject({ raised: 'ValueError', message: expect.stringMatching(/timeout argument must be a float\/int/) });
  expect(seen.names).toEqual(['FunctionTimedOut', 'RETRY_SAME_TIMEOUT', 'StoppableThread', 'func_set_timeout', 'func_timeout']);
});

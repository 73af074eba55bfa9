/**
 * An exception that ends a thread the submission started, between turns, does what it does on the platform: the
 * traceback is printed (in the move's output, whole, naming the student's file) and the game goes on, no crash.
 * (The JS side differs on purpose: there an error thrown between turns would end the Node process.)
 */
import { isolateCache, moveInfo, playOpening, reversi } from '../sandbox/support.js';
import { pythonFixture, sandboxedPython } from './support.js';

beforeAll(() => {
  isolateCache();
});

test('an exception in a thread between turns is printed in the next move\'s output; the game goes on', async () => {
  const { player } = await sandboxedPython(pythonFixture('thread_error.py'));
  try {
    const { answer } = await playOpening(player, 10_000);
    expect(answer.kind).toBe('move');
    await new Promise((done) => setTimeout(done, 100)); // frozen between turns: the threads run at the next ask
    const next = await player.requestMove({ state: reversi.encode(reversi.initial(1)), info: moveInfo(10_000) });
    expect(next.kind).toBe('move');
    const text = next.kind === 'move' ? (next.output?.text ?? '') : '';
    expect(text).toMatch(/^Exception in thread helper:\nTraceback \(most recent call last\):\n/);
    expect(text).toMatch(/File "thread_error\.py", line \d+, in later\n/);
    expect(text).toMatch(/\nValueError: boom in a thread between turns\n$/);
    expect(text).not.toMatch(/referee-|quitter|SystemExit/); // no staged path; sys.exit in a thread is quiet
    const third = await player.requestMove({ state: reversi.encode(reversi.initial(1)), info: moveInfo(10_000) });
    expect(third.kind === 'move' && third.output).toBeFalsy(); // same process, nothing more printed
  } finally {
    await player.close();
  }
}, 60_000);

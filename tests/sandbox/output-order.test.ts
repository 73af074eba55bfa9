/**
 * A move's captured output keeps the order the player wrote it: stdout and stderr reach the grader as one stream
 * (launch.ts mergeOutput), so alternating prints and warnings are never regrouped by the order the grader happens to
 * read two pipes in (seen at load 41 with two). One game each of a TypeScript, a Python and a C++ player through the
 * CLI, every move's output compared exactly; the answers stay on the protocol's own fds, out of the text.
 */
import { expect, test } from '@jest/globals';
import { packageFile } from '../../grading/package-root.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { runToEnd } from '../setup/children.js';

function written(move: number): string {
  let text = '';
  for (let i = 1; i <= 4; i++) text += `move ${move} out ${i}\nmove ${move} err ${i}\n`;
  return text;
}

test.each(['ts', 'py', 'cpp'])('AIPlayer.%s: stdout and stderr lines in the order written, every move', async (extension) => {
  const run = await runToEnd(process.execPath, [packageFile('dist', 'cli', 'index.js'), 'play', '--black', packageFile('tests', 'fixtures', 'interleaved', `AIPlayer.${extension}`), '--white', 'random', '--games', '1', '--json']);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  const record = (JSON.parse(run.stdout) as { records: GameRecord[] }).records[0];
  const own = record.turns.filter((turn) => turn.side === 0 && turn.kind === 'move');
  expect(own.length).toBeGreaterThan(10);
  own.forEach((turn, i) => expect({ ply: turn.ply, text: turn.output?.text }).toEqual({ ply: turn.ply, text: written(i + 1) }));
}, 180_000);

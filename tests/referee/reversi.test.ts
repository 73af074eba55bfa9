/** The referee on the real game: Reversi through the Game interface, with in-process players. */
import { reversi } from '../../harness/games/reversi/index.js';
import { playGame } from '../../harness/referee/match.js';
import { replayRecord } from '../../harness/referee/replay.js';
import { playSeries } from '../../harness/referee/series.js';
import { inProcess, randomAgent } from './helpers/agents.js';
import { answering, ScriptedPlayer, withoutTimes } from './helpers/fake-players.js';

const start = reversi.initial();
const blackMoves = reversi.legalMoves(start).map((m) => reversi.formatMove(m));
const whiteOnlyMove = reversi
  .legalMoves(reversi.pass(start))
  .map((m) => reversi.formatMove(m))
  .find((m) => !blackMoves.includes(m))!;

describe('referee on Reversi', () => {
  test('a random game: Black first, discs grow by one per move, flips recorded, replay agrees', async () => {
    const record = await playGame({
      game: reversi,
      black: inProcess('r1', randomAgent, reversi),
      white: inProcess('r2', randomAgent, reversi),
      seed: 2024,
    });
    expect(record.turns[0]).toMatchObject({ ply: 1, side: 0, kind: 'move' });
    expect(record.end.reason).toBe('score');
    const moves = record.turns.filter((t) => t.kind === 'move');
    expect(record.end.score![0] + record.end.score![1]).toBe(4 + moves.length);
    expect(moves.every((t) => typeof t.details?.flipped === 'number' && t.details.flipped >= 1)).toBe(true);
    const replay = replayRecord(record, reversi);
    expect(replay.ok).toBe(true);
  });

  test("'d3'-style lowercase, an occupied square and White's move are illegal for Black; then the move counts", async () => {
    const legal = blackMoves[0];
    const black = new ScriptedPlayer('B', answering([legal.toLowerCase(), 'D4', whiteOnlyMove, legal], () => 'A1'));
    const white = new ScriptedPlayer('W', (request) => ({
      kind: 'move',
      value: reversi.formatMove(reversi.legalMoves(reversi.decode(request.state))[0]),
    }));
    const record = await playGame({ game: reversi, black, white, seed: 1, config: { illegalMoveLimit: 4 } });
    expect(record.turns[0].illegal?.map((a) => [a.returned.text, a.reason])).toEqual([
      [legal.toLowerCase(), 'not-notation'],
      ['D4', 'not-legal'],
      [whiteOnlyMove, 'not-legal'],
    ]);
    expect(record.turns[0].move).toBe(legal);
    // Black answers 'A1' from then on: never legal early, so Black loses on its second turn.
    expect(record.end).toMatchObject({ reason: 'illegal', winner: 1, diff: 0 });
    expect(replayRecord(record, reversi).ok).toBe(true);
  });

  test('a seeded random series repeats exactly, passes included, and every record replays', async () => {
    const run = () =>
      playSeries({
        game: reversi,
        a: inProcess('A', randomAgent, reversi),
        b: inProcess('B', randomAgent, reversi),
        games: 20,
        seed: 99,
      });
    const [one, two] = await Promise.all([run(), run()]);
    expect(withoutTimes(two)).toEqual(withoutTimes(one));
    expect(one.records.every((r) => replayRecord(r, reversi).ok)).toBe(true);
    expect(one.records.some((r) => r.turns.some((t) => t.kind === 'pass'))).toBe(true);
    expect(one.tally[0].wins + one.tally[0].draws + one.tally[0].losses).toBe(20);
  });
});

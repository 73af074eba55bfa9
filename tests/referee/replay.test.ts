import { playGame } from '../../harness/referee/match.js';
import type { PlayerAnswer } from '../../harness/referee/player.js';
import { validateRecordShape, type GameRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';
import { lookupOnly } from './helpers/agents.js';
import { answering, firstLegal, ScriptedPlayer } from './helpers/fake-players.js';
import { makeTinyGame } from './helpers/tiny-game.js';

const game = makeTinyGame('xx*o#xx');
const first = firstLegal(game);
const firstMove = (request: Parameters<typeof first>[0]): unknown => (first(request, 0) as { value: unknown }).value;

async function record(
  blackScript = first,
  whiteScript = first,
  config = {},
): Promise<GameRecord> {
  return playGame({ game, black: new ScriptedPlayer('B', blackScript), white: new ScriptedPlayer('W', whiteScript), seed: 3, config });
}

/** A deep copy to corrupt. */
const copy = (value: GameRecord): GameRecord => JSON.parse(JSON.stringify(value));

function rejected(input: unknown, turn: number, message: RegExp): void {
  const result = replayRecord(input, game);
  expect(result).toMatchObject({ ok: false, turn });
  if (!result.ok) {
    expect(result.message).toMatch(message);
    expect(result.message).not.toContain('\n');
  }
}

describe('replayRecord', () => {
  let valid: GameRecord;
  beforeAll(async () => {
    // Black: one illegal answer first; White passes once at the end (no 'o' cell left).
    valid = await record(answering(['a'], firstMove), first);
  });

  test('the referee plays the moves it is expected to (fixture check)', () => {
    expect(valid.turns.map((t) => `${t.side}${t.move ?? '-'}`).join(' ')).toBe('0A 1C 0B 1D 0F 1- 0G');
  });

  test('a valid record replays to its final state, also as JSON text and through a lookup', () => {
    const result = replayRecord(valid, game);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(game.encode(result.finalState)).toBe(valid.end.finalState);
    expect(replayRecord(JSON.stringify(valid), lookupOnly(game))).toMatchObject({ ok: true });
  });

  test('valid forced-loss records replay: illegal, timeout, construction failure', async () => {
    const illegal = await record(first, answering(['Z', 'Z', 'Z'], firstMove));
    const error = await record(() => ({ kind: 'error', message: 'x' }));
    const ctor = await playGame({
      game,
      black: new ScriptedPlayer('B', first),
      white: new ScriptedPlayer('W', first, () => ({ kind: 'memory', message: 'oom' })),
      seed: 3,
    });
    for (const forced of [illegal, error, ctor]) expect(replayRecord(forced, game)).toMatchObject({ ok: true });
  });

  test('a changed move is rejected at its ply', () => {
    const bad = copy(valid);
    bad.turns[2].move = 'A'; // already taken at ply 1
    rejected(bad, 3, /ply 3: "A" is not a legal move for Black/);
  });

  test('a move changed to another legal one breaks the following plies', () => {
    const bad = copy(valid);
    bad.turns[0].move = 'B';
    delete bad.turns[0].details;
    bad.turns[0].details = { cell: 1 };
    rejected(bad, 3, /ply 3/); // Black's recorded B at ply 3 is now occupied
  });

  test('swapped turns are rejected: renumbered at the first ply, unnumbered as a shape error', () => {
    const swapped = copy(valid);
    [swapped.turns[0], swapped.turns[1]] = [swapped.turns[1], swapped.turns[0]];
    rejected(swapped, 1, /turns\[0\]\.ply must be 1/);
    const renumbered = copy(swapped);
    renumbered.turns[0].ply = 1;
    renumbered.turns[1].ply = 2;
    rejected(renumbered, 1, /recorded for White, but Black was to move/);
  });

  test('bad JSON shapes name the field and the turn', () => {
    rejected('{"format": ', 0, /not valid JSON/);
    rejected(42, 0, /must be an object/);
    rejected({ ...copy(valid), format: 'referee.game/0' }, 0, /format must be "referee.game\/1"/);
    const side = copy(valid) as unknown as { turns: Array<Record<string, unknown>> };
    side.turns[1].side = 'O';
    rejected(side, 2, /turns\[1\]\.side must be 0 or 1/);
    const kind = copy(valid) as unknown as { turns: Array<Record<string, unknown>> };
    kind.turns[3].kind = 'resign';
    rejected(kind, 4, /kind must be 'move' or 'pass'/);
    const reason = copy(valid) as unknown as { end: Record<string, unknown> };
    reason.end.reason = 'bored';
    rejected(reason, 8, /end\.reason/);
    const config = copy(valid) as unknown as { config: Record<string, unknown> };
    config.config.moveTimeoutMs = -1;
    rejected(config, 0, /moveTimeoutMs must be a positive integer/);
    const attempt = copy(valid) as unknown as { turns: Array<{ illegal: Array<Record<string, unknown>> }> };
    attempt.turns[0].illegal[0].reason = 'rude';
    rejected(attempt, 1, /illegal\[0\]\.reason/);
    const why = copy(valid) as unknown as { turns: Array<{ illegal: Array<Record<string, unknown>> }> };
    why.turns[0].illegal[0].why = { html: '<b>' };
    rejected(why, 1, /illegal\[0\]\.why must be a string/);
    expect(() => validateRecordShape({})).toThrow(/format/);
  });

  test('a changed winner, score or diff is rejected at the end', () => {
    const winner = copy(valid);
    winner.end.winner = 1;
    rejected(winner, 8, /end: winner is 1, but the position gives 0/);
    const score = copy(valid);
    score.end.score = [4, 1];
    rejected(score, 8, /end: score/);
    const diff = copy(valid);
    diff.end.diff = 0;
    rejected(diff, 8, /end: diff/);
    const final = copy(valid);
    final.end.finalState = 'XXOO#XX:0';
    rejected(final, 8, /finalState is not the position/);
  });

  test('a pass with legal moves, a tampered initial state, details or attempt are rejected', () => {
    const pass = copy(valid);
    pass.turns[1] = { ply: 2, side: 1, kind: 'pass' };
    rejected(pass, 2, /ply 2: White passed, but could play \w+, \w+$/);
    const initial = copy(valid);
    initial.initialState = 'xxxxxxx:0';
    rejected(initial, 0, /initialState/);
    const details = copy(valid);
    details.turns[0].details = { cell: 5 };
    rejected(details, 1, /details\.cell/);
    const legalAttempt = copy(valid);
    legalAttempt.turns[0].illegal = [{ returned: { type: 'string', text: 'B' }, reason: 'not-legal', wallMs: 0 }];
    rejected(legalAttempt, 1, /"B" is a legal move here/);
    const tooMany = copy(valid);
    const attempt = tooMany.turns[0].illegal![0];
    tooMany.turns[0].illegal = [attempt, attempt, attempt];
    rejected(tooMany, 1, /3 illegal answers recorded before a move/);
  });

  test('forced losses must fit the last turn and the config', async () => {
    const illegal = await record(first, answering(['Z', 'Z', 'Z'], firstMove));
    const fewer = copy(illegal);
    fewer.end.loser!.attempts.pop();
    rejected(fewer, 2, /2 illegal attempts do not fit verdict 'illegal'/);
    const winner = copy(illegal);
    winner.end.winner = 1;
    rejected(winner, 2, /winner must be the loser's opponent/);
    const diff = copy(illegal);
    diff.end.diff = 3;
    rejected(diff, 2, /diff 0/);
    const side = copy(illegal);
    side.end.loser!.side = 0;
    side.end.winner = 1;
    rejected(side, 2, /the loser is Black, but White was to move/);
    const verdict = copy(illegal);
    verdict.end.reason = 'timeout';
    rejected(verdict, 2, /differs from the loser's verdict/);

    const tamper = await record(() => ({ kind: 'tamper', value: 'A' } as PlayerAnswer));
    const lenient = copy(tamper);
    lenient.config = { ...lenient.config, tamperLoses: false };
    rejected(lenient, 1, /tamper loss under config.tamperLoses false/);
    const noLoser = copy(tamper);
    delete noLoser.end.loser;
    rejected(noLoser, 1, /must name the loser/);
  });

  test('the wrong game, or an unknown one, is rejected at turn 0', () => {
    rejected({ ...copy(valid), game: 'reversi' }, 0, /not "tiny"/);
    const result = replayRecord({ ...copy(valid), game: 'chess' }, lookupOnly(game));
    expect(result).toMatchObject({ ok: false, turn: 0, message: expect.stringMatching(/unknown game "chess"/) });
  });
});

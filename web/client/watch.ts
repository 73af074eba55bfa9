/**
 * `referee serve --watch <out-dir>`: a live dashboard of a batch, tournament or grade (read-only): students or players
 * with their status, workers, games in play and finished; a game on the board move by move, following the newest.
 */
import type { AnyGame, Side } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import type { TurnView } from '../server/protocol.js';
import type { WatchedLiveGame as WatchLive, WatchOverview } from '../server/watch.js';
import { send } from './connection.js';
import { $ } from './dom.js';
import { positionsFrom } from './positions.js';

export interface WatchRecord {
  game: string;
  seed: number;
  initialState?: string;
  players: [string, string];
  turns: TurnView[];
  end?: { winner: Side | null; reason: string; score: [number, number] | null; loser?: { message: string } };
}

let watchTimer: ReturnType<typeof setInterval> | null = null;
/** The game on the watch board, whether it is in play ('live') or finished ('record'). */
let watchKey: string | null = null;
let watchMode: 'live' | 'record' | null = null;
let watchPly = 0;
/** When the followed game in play ended (its result then stays on the board a moment before following the next). */
let watchEndedAt = 0;
const RESULT_PAUSE_MS = 2000;

export function watchGame(key: string): void {
  $('watch-message').textContent = '';
  send({ type: 'watch', key });
}

function cells(row: HTMLTableRowElement, texts: string[]): void {
  for (const text of texts) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
}

function gameButton(key: string, text: string): HTMLLIElement {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.key = key;
  button.textContent = text;
  if (key === watchKey) button.setAttribute('aria-current', 'true');
  button.addEventListener('click', () => {
    $<HTMLInputElement>('watch-follow').checked = false;
    watchGame(key);
  });
  item.append(button);
  return item;
}

const RUN_STATES: Record<WatchOverview['run']['state'], string> = {
  running: 'running',
  stopped: 'not running: the grader stopped writing without finishing (killed?) — run it again with --resume',
  done: 'finished',
  interrupted: 'interrupted (resume it with --resume)',
  unknown: 'waiting for it to start',
};

export function renderWatch(data: WatchOverview): void {
  $('watch-dir').textContent = data.dir;
  const graded = data.students.filter((s) => s.status !== 'grading' && s.status !== 'waiting').length;
  const tournament = data.source === 'tournament';
  const who = tournament ? `${data.students.length} players` : `${data.students.length} students (${graded} graded)`;
  $('watch-summary').textContent = data.source === 'none'
    ? data.dirExists
      ? 'No batch.sqlite, tournament.sqlite or games.jsonl here yet: waiting for the batch, tournament or grade to start…'
      : 'This folder does not exist yet: waiting for the batch, tournament or grade to start and make it…'
    : `${data.source} ${RUN_STATES[data.run.state]}: ${who}, ${data.live.length} games in play, ${data.gamesTotal} games finished.`;
  const headings = $('watch-students').querySelectorAll('th');
  headings[0].textContent = tournament ? 'Player' : 'Student';
  headings[2].textContent = tournament ? 'Points' : 'Score';
  document.body.dataset.watchRun = data.run.state;
  const body = $('watch-students').querySelector('tbody')!;
  body.replaceChildren();
  for (const student of data.students) {
    const row = document.createElement('tr');
    const score = student.score === null ? '' : `${student.score} / ${student.maxScore}`;
    const done = student.planned !== null && student.status !== 'graded' && student.status !== 'error' ? `${student.games} / ${student.planned}` : String(student.games);
    const games = student.playing > 0 ? `${done} (+${student.playing} playing)` : done;
    cells(row, [student.id, student.error ? `${student.status === 'error' ? 'error' : student.status}: ${student.error}` : student.status, score, games]);
    row.dataset.status = student.status;
    body.append(row);
  }
  const workers = $('watch-workers').querySelector('tbody')!;
  workers.replaceChildren();
  for (const worker of data.workers) {
    const row = document.createElement('tr');
    row.dataset.worker = worker.name;
    cells(row, [worker.name, worker.playing.map((game) => `${game.label} (ply ${game.plies})`).join('; ') || 'idle', String(worker.finished)]);
    workers.append(row);
  }
  $('watch-workers').hidden = data.workers.length === 0;
  $('watch-live').replaceChildren(
    ...data.live.map((game) =>
      gameButton(game.key, `${game.student}: ${game.players ? `${game.players[0]} vs ${game.players[1]}` : 'starting'} — ply ${game.plies}${game.lastMove ? ` (${game.lastMove})` : ''} on ${game.worker}`),
    ),
  );
  $('watch-live-none').hidden = data.live.length > 0;
  $('watch-games').replaceChildren(
    ...data.games.map((game) => gameButton(game.key, `${game.student ? `${game.student}: ` : ''}${game.players[0]} vs ${game.players[1]} — ${game.result} (${game.plies} plies)`)),
  );
  if (!$<HTMLInputElement>('watch-follow').checked) return;
  // Follow: stay on a game in play until it ends (the server then sends its record, or says it stopped); show its
  // result a moment; then the newest game in play, or, with none in play, the newest finished one.
  if (watchMode === 'live') return;
  if (watchMode === 'record' && watchEndedAt > 0 && performance.now() - watchEndedAt < RESULT_PAUSE_MS) return;
  const next = data.live[data.live.length - 1] ?? data.games[0];
  if (next && next.key !== watchKey) watchGame(next.key);
}

function drawWatch(game: AnyGame, players: [string, string], all: unknown[], turns: readonly TurnView[], ply: number, note: string): void {
  const turn = ply > 0 ? turns[ply - 1] : undefined;
  $('watch-board').innerHTML = game.renderSvg(all[ply], { lastMove: turn?.kind === 'move' ? turn.move : undefined, size: 480 });
  $('watch-title').textContent = `${game.title}: ${players[0]} (${game.symbols[0]}) vs ${players[1]} (${game.symbols[1]})`;
  $('watch-ply').textContent = `ply ${ply} of ${all.length - 1}${note}`;
  document.body.dataset.watchPly = String(ply);
}

function stopWatchAnimation(): void {
  if (watchTimer) clearInterval(watchTimer);
  watchTimer = null;
}

/** A game in play: the board shows its newest position, and moves on as the server sends more. */
export function showLiveGame(live: WatchLive): void {
  const { progress } = live;
  let game: AnyGame;
  try {
    game = getGame(progress.game);
  } catch {
    return;
  }
  stopWatchAnimation();
  watchKey = live.key;
  watchMode = 'live';
  watchEndedAt = 0;
  const turns: TurnView[] = progress.moves.map((move, index) => (move === null ? { side: (index % 2) as Side, kind: 'pass' } : { side: (index % 2) as Side, kind: 'move', move }));
  const all = positionsFrom(game, progress.seed, turns, progress.initialState);
  watchPly = all.length - 1;
  document.body.dataset.watchLive = live.key;
  drawWatch(game, progress.players, all, turns, watchPly, ` — in play on ${live.worker} (${live.student})`);
}

/** Plays a journaled game on the board move by move (from where the board is, if it was following it live). */
export function startWatchGame(key: string, record: WatchRecord): void {
  const continuing = watchKey === key && watchMode === 'live';
  stopWatchAnimation();
  watchKey = key;
  watchMode = 'record';
  watchEndedAt = continuing ? performance.now() : 0;
  delete document.body.dataset.watchLive;
  const game = getGame(record.game);
  const all = positionsFrom(game, record.seed, record.turns, record.initialState);
  let ply = continuing ? Math.min(watchPly, all.length - 1) : 0;
  const end = record.end;
  const final = all[all.length - 1];
  // A game won on the board says why in the game's words (its geometry); a forfeit names its verdict.
  const why = end?.reason === 'score' && game.geometry && game.isTerminal(final) ? `: ${game.geometry.ending(final).reason}` : end && end.reason !== 'score' ? ` (${end.reason}${end.loser ? `: ${end.loser.message}` : ''})` : '';
  const result = !end ? '' : `${end.winner === null ? 'draw' : `${record.players[end.winner]} wins`}${why}`;
  const draw = (): void => {
    watchPly = ply;
    const done = ply === all.length - 1;
    drawWatch(game, record.players, all, record.turns, ply, done && result ? ` — ${result}` : '');
    if (done) document.body.dataset.watchResult = result;
  };
  delete document.body.dataset.watchResult;
  draw();
  watchTimer = setInterval(() => {
    if (ply >= all.length - 1) return stopWatchAnimation();
    ply++;
    draw();
  }, 120);
}


/** A refusal or a followed game that stopped: shown on the dashboard; Follow picks another at the next overview. */
export function watchError(message: string): void {
  if ($('watch-view').hidden) return;
  $('watch-message').textContent = message;
  if (watchMode === 'live') watchMode = null;
}

/** The dashboard's first overview (again after a lost connection, with the followed game in play). */
export function startWatching(): void {
  $('watch-view').hidden = false;
  document.querySelector('footer')!.textContent = 'Watching (read-only): click a game in play or a finished game to show it; Follow moves on to the newest game in play by itself.';
  send({ type: 'watch' });
  if (watchKey !== null && watchMode === 'live') watchGame(watchKey);
}

/**
 * `referee serve --watch <out-dir>`: a live dashboard of a batch, tournament or grade (read-only): students or players
 * with their status, workers, games in play and finished; a game on the board move by move, following the newest.
 */
import type { AnyGame, Side } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import type { TurnView } from '../server/protocol.js';
import type { WatchedLiveGame as WatchLive, WatchOverview } from '../server/watch.js';
import { send } from './connection.js';
import { $, plural } from './dom.js';
import { positionsFrom } from './positions.js';
import { isLossVerdict, VERDICT_DESCRIPTIONS } from '../../harness/referee/verdict.js';

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
  markCurrent(key);
  send({ type: 'watch', key });
}

/** The highlighted row follows the game on the board at once (not only at the next overview). */
function markCurrent(key: string): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('#watch-live button, #watch-games button')) {
    if (button.dataset.key === key) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  }
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
  const count = data.students.length;
  const who = tournament
    ? count === 0 ? 'no players yet' : plural(count, 'player')
    : count === 0 ? 'no students yet' : `${plural(count, 'student')} (${graded} graded)`;
  $('watch-summary').textContent = data.source === 'none'
    ? data.dirExists
      ? 'No batch.sqlite, tournament.sqlite or games.jsonl here yet: waiting for the batch, tournament or grade to start…'
      : 'This folder does not exist yet: waiting for the batch, tournament or grade to start and make it…'
    : `${data.source} ${RUN_STATES[data.run.state]}: ${who}, ${data.live.length === 0 ? 'no game' : plural(data.live.length, 'game')} in play, ${plural(data.gamesTotal, 'game')} finished.`;
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
    ...data.games.map((game) => gameButton(game.key, `${game.student ? `${game.student}: ` : ''}${game.players[0]} vs ${game.players[1]} — ${game.result} (${plural(game.plies, 'ply', 'plies')})`)),
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

/** A finished game on the board: its positions, where the replay is, and its result in words. */
let replay: { game: AnyGame; record: WatchRecord; all: unknown[]; result: string } | null = null;

function stopWatchAnimation(): void {
  if (watchTimer) clearInterval(watchTimer);
  watchTimer = null;
  const play = document.getElementById('watch-play');
  if (play) {
    play.textContent = 'Play';
    play.setAttribute('aria-pressed', 'false');
  }
}

/** The controls: live games follow the server (no stepping); a finished game steps, slides and plays. */
function syncControls(last: number, live: boolean): void {
  const slider = $<HTMLInputElement>('watch-slider');
  slider.max = String(last);
  slider.value = String(watchPly);
  for (const id of ['watch-first', 'watch-prev', 'watch-play', 'watch-next', 'watch-last', 'watch-slider']) {
    ($(id) as HTMLButtonElement | HTMLInputElement).disabled = live;
  }
}

/** Show ply `ply` of the finished game on the board (clamped). */
function showReplayPly(ply: number): void {
  if (!replay) return;
  const { game, record, all, result } = replay;
  watchPly = Math.max(0, Math.min(all.length - 1, ply));
  const done = watchPly === all.length - 1;
  drawWatch(game, record.players, all, record.turns, watchPly, done && result ? ` — ${result}` : '');
  if (done) document.body.dataset.watchResult = result;
  syncControls(all.length - 1, false);
  if (done) stopWatchAnimation();
}

/** Autoplay from here (from the start when at the end), at the chosen moves per second. */
function playReplay(): void {
  if (!replay) return;
  if (watchTimer) clearInterval(watchTimer);
  if (watchPly >= replay.all.length - 1) showReplayPly(0);
  const perSecond = Number($<HTMLSelectElement>('watch-speed').value) || 8;
  watchTimer = setInterval(() => showReplayPly(watchPly + 1), 1000 / perSecond);
  $('watch-play').textContent = 'Pause';
  $('watch-play').setAttribute('aria-pressed', 'true');
}

/** A hand on the controls stops Follow (the reader chose this game) and any autoplay. */
function byHand(action: () => void): () => void {
  return () => {
    $<HTMLInputElement>('watch-follow').checked = false;
    stopWatchAnimation();
    action();
  };
}

let controlsBound = false;
function bindControls(): void {
  if (controlsBound) return;
  controlsBound = true;
  $('watch-first').addEventListener('click', byHand(() => showReplayPly(0)));
  $('watch-prev').addEventListener('click', byHand(() => showReplayPly(watchPly - 1)));
  $('watch-next').addEventListener('click', byHand(() => showReplayPly(watchPly + 1)));
  $('watch-last').addEventListener('click', byHand(() => showReplayPly(Infinity)));
  $('watch-slider').addEventListener('input', byHand(() => showReplayPly(Number($<HTMLInputElement>('watch-slider').value))));
  $('watch-play').addEventListener('click', () => {
    $<HTMLInputElement>('watch-follow').checked = false;
    if (watchTimer) stopWatchAnimation();
    else playReplay();
  });
  $('watch-speed').addEventListener('change', () => {
    if (watchTimer) playReplay();
  });
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
  replay = null;
  watchKey = live.key;
  watchMode = 'live';
  watchEndedAt = 0;
  markCurrent(live.key);
  const turns: TurnView[] = progress.moves.map((move, index) => (move === null ? { side: (index % 2) as Side, kind: 'pass' } : { side: (index % 2) as Side, kind: 'move', move }));
  const all = positionsFrom(game, progress.seed, turns, progress.initialState);
  watchPly = all.length - 1;
  document.body.dataset.watchLive = live.key;
  delete document.body.dataset.watchResult; // the last followed game's, not this one's
  drawWatch(game, progress.players, all, turns, watchPly, ` — in play on ${live.worker} (${live.student})`);
  syncControls(watchPly, true);
}

/** Replays a journaled game on the board (from where the board is, if it was following it live), with controls. */
export function startWatchGame(key: string, record: WatchRecord): void {
  bindControls();
  const continuing = watchKey === key && watchMode === 'live';
  stopWatchAnimation();
  watchKey = key;
  watchMode = 'record';
  watchEndedAt = continuing ? performance.now() : 0;
  markCurrent(key);
  delete document.body.dataset.watchLive;
  const game = getGame(record.game);
  const all = positionsFrom(game, record.seed, record.turns, record.initialState);
  const end = record.end;
  const final = all[all.length - 1];
  // A game won on the board says why in the game's words (its geometry); a forfeit names its verdict.
  const forfeit = end && end.winner !== null && isLossVerdict(end.reason) ? end.reason : null;
  const why = end?.reason === 'score' && game.geometry && game.isTerminal(final)
    ? `: ${game.geometry.ending(final).reason}`
    : forfeit && end?.winner != null
      ? `: ${record.players[1 - end.winner]} ${VERDICT_DESCRIPTIONS[forfeit]}${end.loser ? ` (${end.loser.message})` : ''}`
      : end && end.reason !== 'score' ? ` (${end.reason})` : '';
  const result = !end ? '' : `${end.winner === null ? 'draw' : `${record.players[end.winner]} wins`}${why}`;
  replay = { game, record, all, result };
  delete document.body.dataset.watchResult;
  showReplayPly(continuing ? Math.min(watchPly, all.length - 1) : 0);
  if (watchPly < all.length - 1) playReplay();
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

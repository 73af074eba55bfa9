/**
 * The page of `referee serve`. Positions are redrawn here with each game's own renderSvg (the same pure code the
 * referee runs, bundled by esbuild), so legal moves and positions show at once; every move is still sent to the
 * server, whose referee decides. The page keeps no game of its own: a reload asks the server for the game in the
 * URL's #game=… again.
 */
import type { AnyGame, Side } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import { VERDICT_DESCRIPTIONS, type LossVerdict } from '../../harness/referee/verdict.js';
import type { ClientMessage, ServerMessage, SessionSnapshot, SideSpec, TurnView } from '../server/protocol.js';
import type { WatchedLiveGame as WatchLive, WatchOverview } from '../server/watch.js';

type Welcome = Extract<ServerMessage, { type: 'welcome' }>;

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const SVG_NS = 'http://www.w3.org/2000/svg';
const BOARD_SIZE = 560;

let socket: WebSocket | null = null;
let welcome: Welcome | null = null;
let snapshot: SessionSnapshot | null = null;
let snapshotAt = 0;
/** The ply shown: null follows the game, a number views an earlier position. */
let viewPly: number | null = null;
let states: unknown[] = [];
let statesKey = '';
let loadedRecord: Record<string, unknown> | null = null;
let focusedCell: string | null = null;

// ---------------------------------------------------------------------------------------------- connection

function send(message: ClientMessage): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect(): void {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/ws${location.search}`);
  socket.addEventListener('open', () => ($('connection').textContent = 'connected'));
  socket.addEventListener('close', () => {
    $('connection').textContent = 'disconnected: retrying…';
    setTimeout(connect, 1000);
  });
  socket.addEventListener('message', (event) => onMessage(JSON.parse(String(event.data)) as ServerMessage));
}

function sessionInHash(): string | null {
  const match = /(?:^#|&)game=([A-Za-z0-9_-]+)/.exec(location.hash);
  return match ? match[1] : null;
}

function onMessage(message: ServerMessage): void {
  switch (message.type) {
    case 'welcome':
      welcome = message;
      setUpWelcome(message);
      return;
    case 'gone':
      // The game in the URL no longer exists (server restarted): start a fresh one with the settings shown.
      newGame();
      return;
    case 'session':
      if (snapshot?.id !== message.snapshot.id) viewPly = null;
      snapshot = message.snapshot;
      snapshotAt = performance.now();
      if (snapshot.kind === 'play' && sessionInHash() !== snapshot.id) history.replaceState(null, '', `#game=${snapshot.id}`);
      $('message').textContent = snapshot.error ?? '';
      render();
      return;
    case 'error':
      $('message').textContent = message.message;
      if (!$('watch-view').hidden) {
        $('watch-message').textContent = message.message;
        // The followed game stopped without a result: Follow picks another at the next overview.
        if (watchMode === 'live') watchMode = null;
      }
      return;
    case 'watch':
      renderWatch(message.data as WatchOverview);
      return;
    case 'watch-game':
      startWatchGame(message.key, message.record as WatchRecord);
      return;
    case 'watch-live':
      showLiveGame(message.game as WatchLive);
      return;
  }
}

// ---------------------------------------------------------------------------------------------- settings

function playerOptions(select: HTMLSelectElement, gameId: string, keep: string): void {
  const info = welcome!.games.find((g) => g.id === gameId)!;
  select.replaceChildren();
  const add = (value: string, label: string): void => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    select.append(option);
  };
  add('human', 'Human');
  for (const level of info.levels) add(`ref:${level}`, `AI: ${level}`);
  welcome!.submissions.forEach((path, index) => add(`sub:${index}`, `Submission: ${path}`));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

function gameChanged(): void {
  const gameId = $<HTMLSelectElement>('game').value;
  const info = welcome!.games.find((g) => g.id === gameId)!;
  playerOptions($<HTMLSelectElement>('black'), gameId, $<HTMLSelectElement>('black').value || 'human');
  playerOptions($<HTMLSelectElement>('white'), gameId, $<HTMLSelectElement>('white').value || `ref:${info.levels[0]}`);
  $<HTMLInputElement>('move-time').value = String(info.moveTimeMs / 1000);
  $('seed-label').title = info.seeded ? 'The seed draws the board layout' : 'The seed drives the AIs’ randomness';
}

function setUpWelcome(message: Welcome): void {
  if (message.watch) {
    $('watch-view').hidden = false;
    document.querySelector('footer')!.textContent = 'Watching (read-only): click a game in play or a finished game to show it; Follow moves on to the newest game in play by itself.';
    send({ type: 'watch' });
    // Back after a lost connection: the game on the board again (its moves since, or its end).
    if (watchKey !== null && watchMode === 'live') watchGame(watchKey);
    return;
  }
  $('play-view').hidden = false;
  const select = $<HTMLSelectElement>('game');
  select.replaceChildren();
  for (const game of message.games) {
    const option = document.createElement('option');
    option.value = game.id;
    option.textContent = game.title;
    select.append(option);
  }
  const params = new URLSearchParams(location.search);
  select.value = params.get('game') ?? message.defaultGame;
  if (!select.value) select.value = message.games[0].id;
  $<HTMLSelectElement>('black').value = params.get('black') ?? 'human';
  gameChanged();
  for (const side of ['black', 'white']) {
    const wanted = params.get(side);
    if (wanted) $<HTMLSelectElement>(side).value = wanted;
  }
  if (message.seat) {
    $('settings').hidden = true;
    send({ type: 'hello', session: message.seat });
    return;
  }
  const existing = sessionInHash();
  if (existing) send({ type: 'hello', session: existing });
  else newGame();
}

function specOf(value: string): SideSpec {
  if (value.startsWith('ref:')) return { kind: 'reference', name: value.slice(4) };
  if (value.startsWith('sub:')) return { kind: 'submission', index: Number(value.slice(4)) };
  return { kind: 'human' };
}

function chosenSides(): [SideSpec, SideSpec] {
  let black = $<HTMLSelectElement>('black').value;
  let white = $<HTMLSelectElement>('white').value;
  if ($<HTMLSelectElement>('colour').value === 'random' && Math.random() < 0.5) [black, white] = [white, black];
  return [specOf(black), specOf(white)];
}

function moveTimeMs(): number | undefined {
  const seconds = Number($<HTMLInputElement>('move-time').value);
  return Number.isFinite(seconds) && seconds > 0 ? Math.max(100, Math.round(seconds * 1000)) : undefined;
}

function newGame(): void {
  const [black, white] = chosenSides();
  const seedText = $<HTMLInputElement>('seed').value.trim();
  const message: ClientMessage = { type: 'new', game: $<HTMLSelectElement>('game').value, black, white };
  if (seedText !== '' && /^\d+$/.test(seedText)) message.seed = Number(seedText);
  const time = moveTimeMs();
  if (time !== undefined) message.moveTimeMs = time;
  $('banner').hidden = true;
  $('load-panel').hidden = true;
  send(message);
}

// ---------------------------------------------------------------------------------------------- positions

/** The state after each ply of a turn list (index 0 is the start). */
function positions(game: AnyGame, seed: number, turns: readonly TurnView[], start?: unknown): unknown[] {
  const list: unknown[] = [start ?? game.initial(seed)];
  let state = list[0];
  for (const turn of turns) {
    if (turn.kind === 'pass') state = game.pass(state);
    else {
      const move = game.legalMoves(state).find((m) => game.formatMove(m) === turn.move);
      if (move === undefined) break; // cannot happen for a refereed game; stop rather than draw nonsense
      state = game.apply(state, move);
    }
    list.push(state);
  }
  return list;
}

function statesFor(snap: { id: string; game: string; seed: number; initialState: string; turns: readonly TurnView[] }): unknown[] {
  const key = `${snap.id}:${snap.seed}:${snap.initialState}:${snap.turns.map((t) => t.move ?? '-').join(',')}`;
  if (key !== statesKey) {
    states = positionsFrom(getGame(snap.game), snap.seed, snap.turns, snap.initialState);
    statesKey = key;
  }
  return states;
}

const LAST_MOVE = /class="last-move"[^>]*?\scx="([-\d.]+)"\s+cy="([-\d.]+)"/;
const DISC_RADIUS = /<circle data-square="[^"]*"[^>]*?\sr="([\d.]+)"/;

/** Where a move lands in the game's own picture: the .last-move mark of the position after it. */
function landing(game: AnyGame, after: unknown, move: string): { x: number; y: number; r: number } | null {
  // Same size as the board shown: a renderer may scale its viewBox with it.
  const svg = game.renderSvg(after, { lastMove: move, size: BOARD_SIZE });
  const mark = LAST_MOVE.exec(svg);
  if (!mark) return null;
  const radius = DISC_RADIUS.exec(svg);
  return { x: Number(mark[1]), y: Number(mark[2]), r: radius ? Number(radius[1]) : 10 };
}

const cellCache = new Map<string, { notation: string; x: number; y: number; r: number }[]>();

/**
 * Every cell that has a notation of its own, and where the game's picture puts it: a canonical notation is any
 * string parseMove accepts (letter + number, or a number), and renderSvg marks it with .last-move. Cells whose
 * mark depends on the position (Connect Four's columns) are drawn by the game itself and are skipped here.
 */
function emptyCells(game: AnyGame): { notation: string; x: number; y: number; r: number }[] {
  const cached = cellCache.get(game.id);
  if (cached) return cached;
  const start = game.initial(0);
  const radius = DISC_RADIUS.exec(game.renderSvg(start, { size: BOARD_SIZE }));
  const cells: { notation: string; x: number; y: number; r: number }[] = [];
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const letter of letters) {
    for (let number = 1; number <= 26; number++) {
      const notation = `${letter}${number}`;
      if (game.parseMove(notation) === null) continue;
      const mark = LAST_MOVE.exec(game.renderSvg(start, { lastMove: notation, size: BOARD_SIZE }));
      if (mark) cells.push({ notation, x: Number(mark[1]), y: Number(mark[2]), r: radius ? Number(radius[1]) : 10 });
    }
  }
  cellCache.set(game.id, cells);
  return cells;
}

/**
 * In a game whose moves are columns, not cells (Connect Four: no cell has a notation of its own), the legal move
 * whose column holds x (the landing spot's centre within a disc's radius and a half), or null. Other games: null.
 */
function columnTarget(svg: SVGSVGElement | Element, x: number): string | null {
  const game = snapshot ? getGame(snapshot.game) : null;
  if (!game || emptyCells(game).length > 0) return null;
  let best: { move: string; dx: number } | null = null;
  for (const target of svg.querySelectorAll('.target')) {
    const dx = Math.abs(Number(target.getAttribute('cx')) - x);
    const r = Number(target.getAttribute('r'));
    if (dx <= r * 1.5 && (!best || dx < best.dx)) best = { move: target.getAttribute('data-move')!, dx };
  }
  return best?.move ?? null;
}

function sideLabel(game: AnyGame, side: Side): string {
  return `${game.sideNames[side]} (${game.symbols[side]})`;
}

// ---------------------------------------------------------------------------------------------- rendering

function svgElement(name: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function formatClock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
}

function clocks(snap: SessionSnapshot): [number, number] {
  const used: [number, number] = [0, 0];
  for (const turn of snap.turns) used[turn.side] += turn.wallMs ?? 0;
  if (snap.clock) used[snap.clock.side] += snap.clock.elapsedMs + (performance.now() - snapshotAt);
  return used;
}

function endText(game: AnyGame, snap: SessionSnapshot): string {
  const end = snap.end!;
  const name = (side: Side): string => `${sideLabel(game, side)} — ${snap.players[side]}`;
  if (end.reason === 'score') {
    const score = end.score ? ` ${end.score[0]}–${end.score[1]}` : '';
    return end.winner === null ? `Draw${score}.` : `${name(end.winner)} wins${score}.`;
  }
  const loser = (1 - (end.winner ?? 0)) as Side;
  const why = VERDICT_DESCRIPTIONS[end.reason as LossVerdict] ?? end.reason;
  return `${name(end.winner as Side)} wins: ${snap.players[loser]} lost by ${end.reason} (${why})${end.message ? `: ${end.message}` : ''}.`;
}

function render(): void {
  const snap = snapshot;
  if (!snap) return;
  const game = getGame(snap.game);
  const all = statesFor(snap);
  const live = all.length - 1;
  const ply = viewPly === null ? live : Math.min(viewPly, live);
  const state = all[ply];
  const lastTurn = ply > 0 ? snap.turns[ply - 1] : undefined;
  const lastMove = lastTurn?.kind === 'move' ? lastTurn.move : undefined;
  const board = $('board');
  board.innerHTML = game.renderSvg(state, { lastMove, size: BOARD_SIZE });
  const svg = board.querySelector('svg')!;
  svg.classList.toggle('show-legal', $<HTMLInputElement>('show-legal').checked);
  svg.setAttribute('aria-label', `${game.title} board at ply ${ply}`);

  const cells: Element[] = [];
  for (const disc of svg.querySelectorAll('[data-square]')) {
    const symbol = disc.getAttribute('data-disc');
    const side = symbol === game.symbols[0] ? 0 : symbol === game.symbols[1] ? 1 : null;
    disc.setAttribute('aria-label', `${disc.getAttribute('data-square')}: ${side === null ? 'empty' : `${game.sideNames[side]} ${symbol}`}`);
    disc.setAttribute('tabindex', '-1');
    disc.setAttribute('role', 'img');
    cells.push(disc);
  }

  // Move numbers on the discs still standing where each move landed (the Gomoku course's "order of moves"),
  // in a colour that reads on the disc there now (a Reversi disc may have been flipped since).
  if ($<HTMLInputElement>('show-numbers').checked) {
    const discAt = (x: number, y: number): string | null => {
      for (const disc of svg.querySelectorAll('circle[data-disc]')) {
        if (Math.abs(Number(disc.getAttribute('cx')) - x) < 1 && Math.abs(Number(disc.getAttribute('cy')) - y) < 1) {
          return disc.getAttribute('data-disc');
        }
      }
      return null;
    };
    for (let i = 0; i < ply; i++) {
      const turn = snap.turns[i];
      if (turn.kind !== 'move') continue;
      const at = landing(game, all[i + 1], turn.move!);
      if (!at) continue;
      const symbol = discAt(at.x, at.y);
      if (symbol === null) continue;
      const text = svgElement('text', {
        x: at.x, y: at.y + at.r * 0.35, 'text-anchor': 'middle', 'font-size': at.r * (i + 1 >= 100 ? 0.8 : 1),
        fill: symbol === game.symbols[0] ? '#f9fafb' : '#111827', class: 'move-number',
      });
      text.textContent = String(i + 1);
      svg.append(text);
    }
  }

  // Legal targets: where the human to move may click (only at the live position).
  const humanSide = snap.humanToMove;
  const canPlay = viewPly === null && humanSide !== null && !snap.end && game.toMove(state) === humanSide;
  const taken = new Set<string>();
  const spot = (x: number, y: number): string => `${Math.round(x)},${Math.round(y)}`;
  for (const disc of svg.querySelectorAll('circle[data-square]')) taken.add(spot(Number(disc.getAttribute('cx')), Number(disc.getAttribute('cy'))));
  const targets: SVGElement[] = [];
  if (canPlay) {
    for (const move of game.legalMoves(state)) {
      const notation = game.formatMove(move);
      const at = landing(game, game.apply(state, move), notation);
      if (!at) continue;
      const target = svgElement('circle', {
        cx: at.x, cy: at.y, r: at.r, class: 'target', 'data-move': notation, role: 'button', tabindex: -1,
        'aria-label': `${notation}: legal move for ${game.sideNames[humanSide]}`,
      });
      target.addEventListener('click', () => play(notation));
      targets.push(target);
      taken.add(spot(at.x, at.y));
    }
  }
  // Cells the picture leaves empty (a renderer draws only discs) still get a focusable spot, so the keyboard
  // reaches every cell; playing one says why it is not legal.
  for (const cell of emptyCells(game)) {
    if (taken.has(spot(cell.x, cell.y))) continue;
    const element = svgElement('circle', {
      cx: cell.x, cy: cell.y, r: cell.r, class: 'cell', 'data-square': cell.notation, role: 'button', tabindex: -1,
      'aria-label': `${cell.notation}: empty`,
    });
    svg.append(element);
    cells.push(element);
  }
  for (const target of targets) {
    svg.append(target);
    cells.push(target);
  }
  // One tab stop into the board (roving tabindex): the focused cell, else a legal move, else the first cell.
  const byName = (el: Element): string => el.getAttribute('data-move') ?? el.getAttribute('data-square') ?? '';
  const first = cells.find((el) => byName(el) === focusedCell) ?? cells.find((el) => el.classList.contains('target')) ?? cells[0];
  first?.setAttribute('tabindex', '0');
  if (focusedCell !== null && first && byName(first) === focusedCell && board.dataset.hadFocus === '1') (first as SVGElement).focus();
  board.dataset.hadFocus = '0';

  // Players, score, clocks, turn.
  const toMove = game.isTerminal(state) ? null : game.toMove(state);
  const discs: [number, number] = [0, 0];
  for (const el of svg.querySelectorAll('[data-disc]')) {
    const symbol = el.getAttribute('data-disc');
    if (symbol === game.symbols[0]) discs[0]++;
    else if (symbol === game.symbols[1]) discs[1]++;
  }
  for (const side of [0, 1] as const) {
    const box = $(`side-${side}`);
    box.querySelector('.name')!.textContent = `${sideLabel(game, side)}: ${snap.players[side]}`;
    box.querySelector('.score')!.textContent = `· ${discs[side]} ${discs[side] === 1 ? 'piece' : 'pieces'}`;
    box.classList.toggle('to-move', toMove === side && !snap.end);
  }
  updateClocks();

  const status = $('status');
  if (snap.end) status.textContent = `Game over after ${snap.turns.length} plies.`;
  else if (viewPly !== null) status.textContent = `Viewing ply ${ply} of ${live}.`;
  else if (toMove === null) status.textContent = 'Game over.';
  else if (snap.humanToMove === toMove) status.textContent = `${sideLabel(game, toMove)} to move — your turn (ply ${live + 1}).`;
  else if (snap.humanSides[toMove]) status.textContent = `${sideLabel(game, toMove)} to move (ply ${live + 1}).`;
  else status.textContent = `${sideLabel(game, toMove)} — ${snap.players[toMove]} is thinking… (ply ${live + 1})${snap.paused ? ' — paused' : ''}`;

  const banner = $('banner');
  banner.hidden = !snap.end;
  banner.textContent = snap.end ? endText(game, snap) : '';

  // Move list, clickable to view earlier positions.
  const list = $('move-list');
  list.replaceChildren();
  snap.turns.forEach((turn, index) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `${game.symbols[turn.side]} ${turn.kind === 'pass' ? 'pass' : turn.move}`;
    button.setAttribute('aria-label', `ply ${index + 1}: ${game.sideNames[turn.side]} ${turn.kind === 'pass' ? 'passes' : turn.move}`);
    if (index + 1 === ply) button.setAttribute('aria-current', 'true');
    button.addEventListener('click', () => view(index + 1));
    item.append(button);
    list.append(item);
  });
  $('view-note').hidden = viewPly === null;

  const isPlay = snap.kind === 'play';
  $<HTMLButtonElement>('undo').disabled = !snap.canUndo;
  $<HTMLButtonElement>('redo').disabled = !snap.canRedo;
  $<HTMLButtonElement>('restart').disabled = !isPlay;
  $<HTMLButtonElement>('save').disabled = !isPlay;
  const aiVsAi = isPlay && !snap.humanSides[0] && !snap.humanSides[1];
  $('ai-controls').hidden = !aiVsAi;
  $('pause').textContent = snap.paused ? 'Play' : 'Pause';
  $<HTMLSelectElement>('speed').value = String(snap.delayMs);
  if (isPlay && $<HTMLSelectElement>('game').value !== snap.game) {
    $<HTMLSelectElement>('game').value = snap.game;
    gameChanged();
  }
  if (isPlay && $<HTMLInputElement>('seed').value === '') $<HTMLInputElement>('seed').placeholder = `random (now ${snap.seed})`;
  document.body.dataset.ply = String(live);
  document.body.dataset.over = snap.end ? '1' : '0';
  document.body.dataset.holding = snap.holding ? '1' : '0';
}

function updateClocks(): void {
  const snap = snapshot;
  if (!snap) return;
  const used = clocks(snap);
  for (const side of [0, 1] as const) $(`side-${side}`).querySelector('.clock')!.textContent = `clock ${formatClock(used[side])}`;
}

setInterval(() => {
  if (snapshot?.clock) updateClocks();
}, 200);

// ---------------------------------------------------------------------------------------------- actions

function play(move: string): void {
  const snap = snapshot;
  if (!snap || snap.humanToMove === null || viewPly !== null) return;
  focusedCell = null;
  send({ type: 'move', ply: snap.turns.length + 1, move });
}

function view(ply: number | null): void {
  if (!snapshot) return;
  const live = snapshot.turns.length;
  viewPly = ply === null || ply >= live ? null : Math.max(0, ply);
  render();
}

function browse(delta: number): void {
  if (!snapshot) return;
  const live = snapshot.turns.length;
  view((viewPly ?? live) + delta);
}

function saveGame(): void {
  if (!snapshot || snapshot.kind !== 'play') return;
  const link = document.createElement('a');
  link.href = `/api/games/${snapshot.id}/record.json${location.search}`;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

let loadedRecords: Record<string, unknown>[] = [];

/** A record from one JSON value: a GameRecord, or a games.jsonl entry wrapping one in `record`. */
function recordOf(json: unknown): Record<string, unknown> | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const object = json as Record<string, unknown>;
  if (object.format === undefined && typeof object.record === 'object' && object.record !== null) return object.record as Record<string, unknown>;
  return object;
}

function chooseLoaded(index: number): void {
  const record = loadedRecords[index];
  loadedRecord = record;
  const turns = Array.isArray(record.turns) ? record.turns.length : 0;
  $('load-summary').textContent = `${String(record.game)}, ${turns} plies, ${JSON.stringify(record.players)}.`;
  $<HTMLInputElement>('load-ply').value = String(turns);
  $<HTMLInputElement>('load-ply').max = String(turns);
  if (typeof record.game === 'string' && [...$<HTMLSelectElement>('game').options].some((o) => o.value === record.game)) {
    $<HTMLSelectElement>('game').value = record.game;
    gameChanged();
  }
}

async function loadFile(file: File): Promise<void> {
  const text = (await file.text()).trim();
  const records: Record<string, unknown>[] = [];
  try {
    records.push(recordOf(JSON.parse(text))!);
  } catch {
    // A games.jsonl file: one game per line (a torn last line is skipped).
    for (const line of text.split('\n')) {
      try {
        const record = recordOf(JSON.parse(line));
        if (record) records.push(record);
      } catch {
        // skipped
      }
    }
  }
  if (records.length === 0 || records[0] === null) {
    $('message').textContent = `${file.name} holds no game record: load a file saved here, from \`referee play --save\`, or a games.jsonl`;
    return;
  }
  loadedRecords = records;
  const pick = $<HTMLSelectElement>('load-pick');
  pick.replaceChildren();
  records.forEach((record, index) => {
    const option = document.createElement('option');
    option.value = String(index);
    const turns = Array.isArray(record.turns) ? record.turns.length : 0;
    option.textContent = `#${index + 1}: ${JSON.stringify(record.players)} (${turns} plies)`;
    pick.append(option);
  });
  $('load-pick-label').hidden = records.length < 2;
  $('load-panel').hidden = false;
  $('message').textContent = '';
  chooseLoaded(0);
}

function playOn(): void {
  if (!loadedRecord) return;
  const [black, white] = [specOf($<HTMLSelectElement>('black').value), specOf($<HTMLSelectElement>('white').value)];
  const ply = Number($<HTMLInputElement>('load-ply').value);
  const message: ClientMessage = { type: 'load', record: loadedRecord, black, white };
  if (Number.isInteger(ply) && ply >= 0) message.ply = ply;
  $('load-panel').hidden = true;
  send(message);
}

/** Arrow keys inside the board: the nearest cell in that direction. */
function moveFocus(from: Element, key: string): void {
  const svg = from.closest('svg');
  if (!svg) return;
  const cells = [...svg.querySelectorAll('[data-square], .target')] as SVGGraphicsElement[];
  const center = (el: SVGGraphicsElement): { x: number; y: number } => {
    const box = el.getBBox();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const here = center(from as SVGGraphicsElement);
  const [dx, dy] = key === 'ArrowLeft' ? [-1, 0] : key === 'ArrowRight' ? [1, 0] : key === 'ArrowUp' ? [0, -1] : [0, 1];
  let best: SVGGraphicsElement | null = null;
  let bestScore = Infinity;
  for (const cell of cells) {
    if (cell === from) continue;
    const c = center(cell);
    const along = (c.x - here.x) * dx + (c.y - here.y) * dy;
    if (along <= 1) continue;
    const across = Math.abs((c.x - here.x) * dy) + Math.abs((c.y - here.y) * dx);
    const score = along + across * 3;
    if (score < bestScore) {
      bestScore = score;
      best = cell;
    }
  }
  if (best) {
    from.setAttribute('tabindex', '-1');
    best.setAttribute('tabindex', '0');
    best.focus();
    focusedCell = best.getAttribute('data-move') ?? best.getAttribute('data-square');
  }
}

function onKey(event: KeyboardEvent): void {
  const target = event.target as Element | null;
  if (target && target.closest('input, select, textarea')) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const inBoard = target?.closest('#board svg') !== null && target?.closest('#board svg') !== undefined;
  if (inBoard && target && target.matches('[data-square], .target')) {
    if (event.key.startsWith('Arrow')) {
      event.preventDefault();
      moveFocus(target, event.key);
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const cx = Number(target.getAttribute('cx'));
      const move = target.getAttribute('data-move') ?? (Number.isFinite(cx) ? columnTarget(target.closest('svg')!, cx) : null);
      if (move) {
        $('board').dataset.hadFocus = '1';
        play(move);
      } else $('message').textContent = `${target.getAttribute('data-square')} is not a legal move now`;
      return;
    }
  }
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const snap = snapshot;
  switch (key) {
    case 'r':
      if (snap?.kind === 'play') send({ type: 'restart' });
      break;
    case 'u':
    case 'w':
      if (snap?.canUndo) send({ type: 'undo' });
      break;
    case 'y':
      if (snap?.canRedo) send({ type: 'redo' });
      break;
    case 'l':
      $<HTMLInputElement>('show-legal').click();
      break;
    case 'n':
      $<HTMLInputElement>('show-numbers').click();
      break;
    case 'ArrowLeft':
      browse(-1);
      break;
    case 'ArrowRight':
      browse(1);
      break;
    case 'Home':
      view(0);
      break;
    case 'End':
      view(null);
      break;
    default:
      return;
  }
  event.preventDefault();
}

function wire(): void {
  $('new-game').addEventListener('click', newGame);
  $('game').addEventListener('change', gameChanged);
  $('restart').addEventListener('click', () => send({ type: 'restart' }));
  $('undo').addEventListener('click', () => send({ type: 'undo' }));
  $('redo').addEventListener('click', () => send({ type: 'redo' }));
  $('show-legal').addEventListener('change', render);
  $('show-numbers').addEventListener('change', render);
  $('save').addEventListener('click', saveGame);
  $('live').addEventListener('click', () => view(null));
  $<HTMLInputElement>('load-file').addEventListener('change', () => {
    const file = $<HTMLInputElement>('load-file').files?.[0];
    if (file) void loadFile(file);
  });
  $('play-on').addEventListener('click', playOn);
  $('load-pick').addEventListener('change', () => chooseLoaded(Number($<HTMLSelectElement>('load-pick').value)));
  $('pause').addEventListener('click', () => send({ type: snapshot?.paused ? 'resume' : 'pause' }));
  $('step').addEventListener('click', () => send({ type: 'step' }));
  $('speed').addEventListener('change', () => send({ type: 'speed', delayMs: Number($<HTMLSelectElement>('speed').value) }));
  $('board').addEventListener('click', (event) => {
    if ((event.target as Element).closest('.target') || snapshot?.humanToMove == null) return;
    // A drop game (Connect Four): anywhere in a column plays that column.
    const svg = $('board').querySelector('svg');
    const matrix = svg?.getScreenCTM()?.inverse();
    const column = svg && matrix ? columnTarget(svg, new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix).x) : null;
    if (column) return play(column);
    const cell = (event.target as Element).closest('[data-square]');
    if (cell) $('message').textContent = `${cell.getAttribute('data-square')} is not a legal move now`;
  });
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', () => {
    const id = sessionInHash();
    if (id && id !== snapshot?.id) send({ type: 'hello', session: id });
  });
}

// ---------------------------------------------------------------------------------------------- watching

interface WatchRecord {
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

function watchGame(key: string): void {
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

function renderWatch(data: WatchOverview): void {
  $('watch-dir').textContent = data.dir;
  const graded = data.students.filter((s) => s.status !== 'grading' && s.status !== 'waiting').length;
  const tournament = data.source === 'tournament';
  const who = tournament ? `${data.students.length} players` : `${data.students.length} students (${graded} graded)`;
  $('watch-summary').textContent = data.source === 'none'
    ? 'No batch.sqlite, tournament.sqlite or games.jsonl here yet: waiting for the batch, tournament or grade to start…'
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
    cells(row, [student.id, student.error ? `error: ${student.error}` : student.status, score, games]);
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

/** Positions from the start (the encoded start position when there is one: it carries the game's rule switches). */
function positionsFrom(game: AnyGame, seed: number, turns: readonly TurnView[], initialState?: string): unknown[] {
  if (initialState === undefined) return positions(game, seed, turns);
  let start: unknown;
  try {
    start = game.decode(initialState);
  } catch {
    return positions(game, seed, turns);
  }
  return positions(game, seed, turns, start);
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
function showLiveGame(live: WatchLive): void {
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
function startWatchGame(key: string, record: WatchRecord): void {
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
  const result = !end ? '' : end.winner === null ? 'draw' : `${record.players[end.winner]} wins${end.reason === 'score' ? '' : ` (${end.reason}${end.loser ? `: ${end.loser.message}` : ''})`}`;
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

wire();
connect();

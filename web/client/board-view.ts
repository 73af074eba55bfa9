/**
 * The board: the game's own picture (renderSvg, an image to assistive technology), with a layer of real HTML buttons
 * over it, one per cell, placed from the game's geometry (never from the picture's markup). Every cell can be
 * clicked and reached by the keyboard; a touch either plays the move the cell means (a Connect Four cell means its
 * column) or says why not, in the game's own words. The board takes the room left in the window under the status
 * lines, but never draws a cell under 24 CSS px (WCAG's target size): a board that cannot fit so pans in its frame.
 */
import type { BoardCell } from '../../harness/games/game.js';
import { send } from './connection.js';
import { $, plural, say, svgElement } from './dom.js';
import { page } from './page.js';
import { geometryOf, shown } from './positions.js';

export const BOARD_SIZE = 560;

/** The cells of the position on the board, by name (the last drawing's). */
let drawnCells = new Map<string, BoardCell>();

/**
 * A move of several touches (Amazons: queen, destination, arrow; the game's geometry.touches says what may come
 * next): the cells touched so far this turn, and the position they belong to (a new position starts afresh).
 */
let picked: string[] = [];
let pickedFor = '';

/** The touches so far, when they belong to the position shown; otherwise none. */
function pickedNow(): string[] {
  const view = shown();
  const key = view ? `${view.ply}:${view.game.encode(view.state)}` : '';
  if (key !== pickedFor) {
    picked = [];
    pickedFor = key;
  }
  return picked;
}

/** Why nothing can be sent for this page's game now (down, restoring, lost, only watching), or null. */
export function whyNotSend(): string | null {
  if (!page.connected) return 'not connected to the server: nothing was sent; the page reconnects by itself (or press "Reconnect now")';
  if (page.restoring) return 'wait a moment: the restarted server is taking this game back';
  if (page.lost) return 'this game is no longer on the server: Save keeps it, Load plays on from it, New game starts another';
  if (page.watching) return 'this tab only watches this game: it was started in another tab, which alone can move, undo or restart it (New game starts one of your own here)';
  return null;
}

/** Why a touch on the board cannot play now (whoever's turn it is, whatever the cell), or null when it can. */
function whyNotNow(): string | null {
  const view = shown();
  const snap = page.snapshot;
  if (!view) return 'no game yet: wait for the connection';
  if (view.preview) return `this is the loaded game at ply ${view.ply}: press "Play on from here" to play from it`;
  if (!snap) return 'no game yet';
  const unsent = whyNotSend();
  if (unsent) return unsent;
  if (view.mover !== null) return null;
  if (page.viewPly !== null) return `you are looking at ply ${view.ply}: press End (or "Back to the game") to play`;
  if (snap.end) return 'the game is over: R starts it again, U takes moves back';
  if (view.game.isTerminal(view.state)) return 'the game is over';
  const side = view.game.toMove(view.state);
  const name = view.game.sideNames[side];
  if (!snap.humanSides[side]) {
    if (!snap.humanSides[0] && !snap.humanSides[1]) return 'the AIs play both sides of this game: watch, or start a new game with a Human side';
    return `it is ${name}'s turn: ${snap.players[side]} is thinking`;
  }
  return "wait a moment: the referee has not asked for this move yet";
}

/** Why the move a cell means is not playable for the side to move now, in the game's words, or null when it is. */
export function whyNotCell(cell: BoardCell): string | null {
  const now = whyNotNow();
  if (now) return now;
  const view = shown()!;
  if (cell.move === null) return cell.note ?? `${cell.name} is not a move of this game`;
  const geometry = geometryOf(view.game);
  if (geometry.touches) {
    const sofar = pickedNow();
    if (sofar.length > 0 && sofar[sofar.length - 1] === cell.name) return null; // touching it again takes it back
    return geometry.touches(view.state, [...sofar, cell.name]).why;
  }
  return geometry.whyIllegal(view.state, cell.move);
}

export function play(move: string): void {
  const snap = page.snapshot;
  if (!snap || snap.humanToMove === null || page.viewPly !== null || page.preview) return;
  page.notice = null;
  if (!send({ type: 'move', ply: snap.turns.length + 1, move })) say(whyNotSend() ?? 'not connected: the move was not sent');
}

/** A touch (click, Enter, Space) on a cell: play what it means, or say why not. */
export function touch(name: string): void {
  const cell = drawnCells.get(name);
  if (!cell) return;
  const why = whyNotCell(cell);
  if (why) return say(why);
  $('board').dataset.hadFocus = document.activeElement?.closest('#board') ? '1' : '0';
  const view = shown()!;
  const touches = geometryOf(view.game).touches;
  if (!touches) {
    say('');
    play(cell.move!);
    return;
  }
  const sofar = pickedNow();
  if (sofar.length > 0 && sofar[sofar.length - 1] === name) {
    sofar.pop();
    say(sofar.length ? `${sofar.join(' → ')}: touch the next square` : '');
  } else {
    const step = touches(view.state, [...sofar, name]);
    if (step.move) {
      picked = [];
      say('');
      play(step.move);
      return;
    }
    sofar.push(name);
    say(`${sofar.join(' → ')}: touch the next square (${step.next.length} possible), or ${name} again to take it back`);
  }
  page.focusedCell = name;
  drawBoard();
}

function describe(cell: BoardCell, symbols: readonly string[], sideNames: readonly string[]): string {
  const side = cell.piece === null ? -1 : symbols.indexOf(cell.piece);
  const what = cell.note ?? (side < 0 ? 'empty' : `${sideNames[side]} ${cell.piece}`);
  const where = cell.move === null || cell.move === cell.name ? cell.name : `${cell.name}, column ${cell.move}`;
  return `${where}: ${what}`;
}

/** Distance between neighbouring cells' centres: the side of a cell's clickable square. */
function pitch(cells: BoardCell[]): number {
  const a = cells.find((cell) => cell.row === 0 && cell.col === 0);
  const b = cells.find((cell) => cell.row === 0 && cell.col === 1);
  return a && b ? Math.abs(b.x - a.x) : (cells[0]?.r ?? 10) * 2.5;
}

export function drawBoard(): void {
  const view = shown();
  if (!view) return;
  const { game, state, states, turns, ply, mover } = view;
  const geometry = geometryOf(game);
  const lastTurn = ply > 0 ? turns[ply - 1] : undefined;
  const lastMove = lastTurn?.kind === 'move' ? lastTurn.move : undefined;
  const board = $('board');
  // Redrawing replaces the cells: a keyboard user's focus goes back to the same cell.
  const hadFocus = board.contains(document.activeElement) || board.dataset.hadFocus === '1';
  board.innerHTML = game.renderSvg(state, { lastMove, size: BOARD_SIZE });
  const svg = board.querySelector('svg')!;
  const numbers = $<HTMLInputElement>('show-numbers').checked;
  svg.classList.toggle('show-legal', $<HTMLInputElement>('show-legal').checked);
  svg.classList.toggle('show-numbers', numbers);
  svg.setAttribute('aria-label', `${game.title} board at ply ${ply}${view.preview ? ' (loaded game, preview)' : ''}`);
  const cells = geometry.cells(state, BOARD_SIZE);
  drawnCells = new Map(cells.map((cell) => [cell.name, cell]));

  // Move numbers on the pieces still standing where each move landed (the Gomoku course's "order of moves"), in a
  // colour that reads on the piece there now (a Reversi disc may have been turned over since); the newest in red,
  // standing in for the last-move mark it would otherwise hide.
  if (numbers) {
    for (let i = 0; i < ply; i++) {
      const turn = turns[i];
      if (turn.kind !== 'move') continue;
      const at = drawnCells.get(geometry.landing(states[i], turn.move!) ?? '');
      if (!at || at.piece === null) continue;
      const text = svgElement('text', {
        x: at.x, y: at.y + at.r * 0.35, 'text-anchor': 'middle', 'font-size': at.r * (i + 1 >= 100 ? 0.8 : 1),
        fill: i === ply - 1 ? '#e11d48' : at.piece === game.symbols[0] ? '#f9fafb' : '#111827',
        class: i === ply - 1 ? 'move-number last' : 'move-number',
      });
      text.textContent = String(i + 1);
      svg.append(text);
    }
  }

  // A finished position: the cells that decided it (the winning line).
  if (game.isTerminal(state)) {
    for (const name of geometry.ending(state).line) {
      const cell = drawnCells.get(name);
      if (cell) svg.append(svgElement('circle', { cx: cell.x, cy: cell.y, r: cell.r * 1.12, class: 'win-line', 'data-line': name }));
    }
  }

  // Where each legal move would land (shown with "Legal moves"), then the clickable cells on top of everything.
  const legal = new Set<string>();
  if (mover !== null && geometry.touches) {
    // A move of several touches: the cells the next touch may name, and the ones touched so far.
    const sofar = pickedNow();
    for (const name of geometry.touches(state, sofar).next) {
      legal.add(name);
      const at = drawnCells.get(name);
      // The first touch names a piece: the piece itself shows it, a target mark is for the squares after it.
      if (at && sofar.length > 0) svg.append(svgElement('circle', { cx: at.x, cy: at.y, r: at.r, class: 'target', 'data-target': name }));
    }
    for (const name of sofar) {
      const at = drawnCells.get(name);
      legal.add(name);
      if (at) svg.append(svgElement('circle', { cx: at.x, cy: at.y, r: at.r * 1.1, class: 'picked', 'data-picked': name, fill: 'none', stroke: '#1e88e5', 'stroke-width': 3 }));
    }
  } else if (mover !== null) {
    for (const move of game.legalMoves(state)) {
      const notation = game.formatMove(move);
      legal.add(notation);
      const at = drawnCells.get(geometry.landing(state, notation) ?? '');
      if (at) svg.append(svgElement('circle', { cx: at.x, cy: at.y, r: at.r, class: 'target', 'data-target': notation }));
    }
  }
  // Where every empty point is legal (Gomoku, an open NoGo board), painting them all says nothing: the hint marks
  // the few empty points that are not legal instead, and says so.
  const empty = cells.filter((cell) => cell.piece === null && cell.move !== null && cell.move === cell.name);
  const mostlyLegal = mover !== null && !geometry.touches && empty.length >= 20 && legal.size * 2 > empty.length;
  svg.classList.toggle('legal-exceptions', mostlyLegal);
  if (mostlyLegal) {
    for (const cell of empty) {
      if (legal.has(cell.move!)) continue;
      svg.append(svgElement('path', { d: cross(cell), class: 'not-legal', 'data-not-legal': cell.name }));
    }
  }
  const hint = $('legal-hint');
  hint.hidden = !$<HTMLInputElement>('show-legal').checked || mover === null;
  hint.textContent = mostlyLegal
    ? legal.size === empty.length
      ? `Legal moves: every empty point (${legal.size}).`
      : `Legal moves: every empty point but the ${plural(empty.length - legal.size, 'one', 'ones')} crossed (${legal.size} legal).`
    : `Legal moves: ${plural(legal.size, 'move', 'moves')}, marked on the board.`;

  const side = pitch(cells);
  const box = svg.viewBox.baseVal;
  const [width, height] = box && box.width > 0 ? [box.width, box.height] : [BOARD_SIZE, BOARD_SIZE];
  const layer = document.createElement('div');
  layer.className = 'cells';
  layer.setAttribute('role', 'group');
  layer.setAttribute('aria-label', `${game.title}: ${cells.length} cells, arrows move between them, Enter plays`);
  const focusable: HTMLButtonElement[] = [];
  for (const cell of cells) {
    const playable = cell.move !== null && legal.has(cell.move);
    const why = mover !== null && !playable ? whyNotCell(cell) : null;
    const label = describe(cell, game.symbols, game.sideNames) + (playable ? `, legal move for ${game.sideNames[mover!]}` : why ? ` (not playable: ${why})` : '');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'cell';
    button.tabIndex = -1;
    button.dataset.cell = cell.name;
    button.dataset.row = String(cell.row);
    button.dataset.col = String(cell.col);
    button.setAttribute('aria-label', label);
    // Placed in percent of the picture, so the buttons follow the board at any size.
    button.style.left = `${(100 * (cell.x - side / 2)) / width}%`;
    button.style.top = `${(100 * (cell.y - side / 2)) / height}%`;
    button.style.width = `${(100 * side) / width}%`;
    button.style.height = `${(100 * side) / height}%`;
    if (playable) button.dataset.move = cell.move!;
    layer.append(button);
    focusable.push(button);
  }
  board.append(layer);
  // Sizing reads the layout: only a board of another shape needs it here (the lines above it and the window are
  // watched), so a fast AI-vs-AI game does not force a layout per move.
  const [ratio, aspect] = [String(side / width), String(height / width)];
  if (board.dataset.cellRatio !== ratio || board.dataset.aspect !== aspect) {
    board.dataset.cellRatio = ratio;
    board.dataset.aspect = aspect;
    fitBoard();
  }

  // One tab stop into the board (roving tabindex): the cell the keyboard was on, else a legal one, else the first.
  const first = focusable.find((el) => el.dataset.cell === page.focusedCell) ?? focusable.find((el) => el.hasAttribute('data-move')) ?? focusable[0];
  if (first) first.tabIndex = 0;
  if (first && first.dataset.cell === page.focusedCell && hadFocus) first.focus();
  board.dataset.hadFocus = '0';
}

/** A small cross over a cell (an empty point that is not a legal move, with "Legal moves" on). */
function cross(cell: BoardCell): string {
  const d = cell.r * 0.45;
  return `M${cell.x - d} ${cell.y - d}L${cell.x + d} ${cell.y + d}M${cell.x + d} ${cell.y - d}L${cell.x - d} ${cell.y + d}`;
}

/** Smallest side of a cell on screen, in CSS px (WCAG 2.5.8's target size). */
const MIN_CELL_PX = 24;

/**
 * Size the board to the room left: the column's width, and the window's height under the lines above it (the
 * status and the reason stay in view), at most BOARD_SIZE. Cells stay at least MIN_CELL_PX: a board that cannot fit
 * so is drawn larger than its frame, which then scrolls (pans) in both directions.
 */
export function fitBoard(): void {
  const board = $('board');
  const frame = $('board-frame');
  const ratio = Number(board.dataset.cellRatio);
  const aspect = Number(board.dataset.aspect) || 1;
  if (!ratio || frame.offsetParent === null) return;
  const column = frame.parentElement!.clientWidth;
  const top = frame.getBoundingClientRect().top + window.scrollY;
  const roomHeight = Math.max(120, window.innerHeight - top - 8);
  const fit = Math.min(column, roomHeight / aspect, BOARD_SIZE);
  const drawn = Math.max(fit, MIN_CELL_PX / ratio);
  board.style.width = `${drawn}px`;
  frame.style.width = `${Math.min(drawn, column)}px`;
  frame.style.height = `${Math.min(drawn * aspect, Math.max(roomHeight, fit * aspect))}px`;
}

/** Hovering a playable cell lights where its move lands (a Connect Four cell: the lowest free one of its column). */
function hover(event: Event): void {
  const board = $('board');
  for (const lit of board.querySelectorAll('.target.hover')) lit.classList.remove('hover');
  const move = (event.target as Element).closest('[data-move]')?.getAttribute('data-move');
  if (move) board.querySelector(`.target[data-target="${CSS.escape(move)}"]`)?.classList.add('hover');
}

export function wireBoard(): void {
  $('board').addEventListener('click', (event) => {
    const cell = (event.target as Element).closest('[data-cell]');
    if (cell) touch(cell.getAttribute('data-cell')!);
  });
  $('board').addEventListener('mouseover', hover);
  $('board').addEventListener('focusin', hover);
  $('board').addEventListener('mouseleave', hover);
  window.addEventListener('resize', fitBoard);
  // The lines above the board grow and shrink (a long reason, the result banner): the board gives them the room.
  const above = new ResizeObserver(() => fitBoard());
  for (const id of ['players', 'status-line', 'banner', 'message']) above.observe($(id));
}

/** Pieces of each side on the board now (from the geometry). */
export function pieceCounts(): [number, number] {
  const view = shown();
  const counts: [number, number] = [0, 0];
  if (!view) return counts;
  for (const cell of geometryOf(view.game).cells(view.state)) {
    if (cell.piece === view.game.symbols[0]) counts[0]++;
    else if (cell.piece === view.game.symbols[1]) counts[1]++;
  }
  return counts;
}

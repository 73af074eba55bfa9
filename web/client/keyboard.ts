/**
 * Keys: on the board, arrows walk the grid cell by cell (every cell, pieces and all) and Enter or Space touches the
 * cell; elsewhere the course GUIs' letters (R restart — U right after it brings the game back —, U/W undo, Y redo,
 * G resign, L legal moves, N numbers) and ←/→/Home/End to browse the moves. A key that cannot act says why.
 */
import { touch, whyNotSend } from './board-view.js';
import { send } from './connection.js';
import { $, say } from './dom.js';
import { page } from './page.js';
import { browse, resign, restart, view } from './controls.js';

const STEPS: Record<string, [number, number]> = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

/** Focus the cell next to `from` in the arrow's direction (the board's edge stops it). */
function walk(from: Element, key: string): void {
  const [dr, dc] = STEPS[key];
  const row = Number(from.getAttribute('data-row')) + dr;
  const col = Number(from.getAttribute('data-col')) + dc;
  const next = from.closest('#board')?.querySelector<HTMLElement>(`[data-cell][data-row="${row}"][data-col="${col}"]`);
  if (!next) return;
  from.setAttribute('tabindex', '-1');
  next.setAttribute('tabindex', '0');
  next.focus();
  next.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function onKey(event: KeyboardEvent): void {
  const target = event.target as Element | null;
  if (target && target.closest('input, select, textarea')) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target?.matches('#board [data-cell]')) {
    if (event.key in STEPS) {
      event.preventDefault();
      walk(target, event.key);
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      touch(target.getAttribute('data-cell')!);
      return;
    }
  }
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const snap = page.snapshot;
  // The keys that change the game say why they did nothing (down, only watching) instead of doing nothing.
  if ((key === 'r' || key === 'u' || key === 'w' || key === 'y' || key === 'g') && snap?.kind === 'play' && !page.preview) {
    const unsent = whyNotSend();
    if (unsent) {
      say(unsent);
      event.preventDefault();
      return;
    }
  }
  switch (key) {
    case 'r':
      if (snap?.kind === 'play') restart();
      break;
    case 'u':
    case 'w':
      if (snap?.canUndo) send({ type: 'undo' });
      else if (snap) say('nothing to undo');
      break;
    case 'y':
      if (snap?.canRedo) send({ type: 'redo' });
      else if (snap) say('nothing to redo');
      break;
    case 'g':
      resign();
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

export function wireKeyboard(): void {
  document.addEventListener('keydown', onKey);
  // The cell the keyboard is on survives redraws (a move, the opponent's reply).
  $('board').addEventListener('focusin', (event) => {
    const cell = (event.target as Element).closest('[data-cell]');
    if (cell) page.focusedCell = cell.getAttribute('data-cell');
  });
}

/**
 * The words around the board: each side's name, pieces and clock; whose turn it is; the result banner (why the game
 * ended, in the game's own terms, with a score only where the game has one); the move list.
 */
import type { AnyGame, Side } from '../../harness/games/game.js';
import { VERDICT_DESCRIPTIONS, type LossVerdict } from '../../harness/referee/verdict.js';
import type { SessionSnapshot } from '../server/protocol.js';
import { pieceCounts } from './board-view.js';
import { view as showPly } from './controls.js';
import { $ } from './dom.js';
import { page } from './page.js';
import { geometryOf, shown, sideLabel, statesOf } from './positions.js';

function formatClock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
}

/**
 * Time each side has used. A person's clock starts with the game's first move: the time a page sat open before
 * anyone moved is nobody's (a human's first move counts from zero; an AI's first move is its own thinking time).
 */
function clocks(snap: SessionSnapshot): [number, number] {
  const used: [number, number] = [0, 0];
  snap.turns.forEach((turn, index) => {
    if (index === 0 && snap.humanSides[turn.side]) return;
    used[turn.side] += turn.wallMs ?? 0;
  });
  const firstMoveByHuman = snap.turns.length === 0 && snap.clock !== null && snap.humanSides[snap.clock.side];
  if (snap.clock && !firstMoveByHuman) used[snap.clock.side] += snap.clock.elapsedMs + (performance.now() - page.snapshotAt);
  return used;
}

function updateClocks(): void {
  const snap = page.snapshot;
  if (!snap || page.preview) return;
  const used = clocks(snap);
  for (const side of [0, 1] as const) $(`side-${side}`).querySelector('.clock')!.textContent = `clock ${formatClock(used[side])}`;
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The result in words: who won, the score where the game has one, and why. */
export function endText(game: AnyGame, snap: SessionSnapshot): string {
  const end = snap.end!;
  const name = (side: Side): string => `${sideLabel(game, side)} — ${snap.players[side]}`;
  if (end.reason === 'score') {
    const states = statesOf(snap);
    const ending = geometryOf(game).ending(states[states.length - 1]);
    const score = ending.score ? ` ${ending.score}` : '';
    const result = end.winner === null ? `Draw${score}.` : `${name(end.winner)} wins${score}.`;
    return `${result} ${capital(ending.reason)}.`;
  }
  if (end.reason === 'resign' && end.resignedBy !== null) {
    return `${name(end.winner as Side)} wins: ${game.sideNames[end.resignedBy]} (${snap.players[end.resignedBy]}) resigned.`;
  }
  if (end.reason === 'quit') return `${end.winner === null ? 'Draw' : `${name(end.winner)} wins`}: a player quit and the count decided.`;
  const loser = (1 - (end.winner ?? 0)) as Side;
  const why = VERDICT_DESCRIPTIONS[end.reason as LossVerdict] ?? end.reason;
  return `${name(end.winner as Side)} wins: ${snap.players[loser]} lost by ${end.reason} (${why})${end.message ? `: ${end.message}` : ''}.`;
}

function statusText(snap: SessionSnapshot): string {
  const view = shown()!;
  const { game, state, ply, live } = view;
  if (view.preview) {
    return `Loaded game, ply ${ply} of ${live}: "Play on from here" continues from this position with the players chosen above.`;
  }
  if (snap.end) return `Game over after ${snap.turns.length} plies.`;
  if (page.viewPly !== null) return `Viewing ply ${ply} of ${live}.`;
  if (game.isTerminal(state)) return 'Game over.';
  const toMove = game.toMove(state);
  if (snap.humanToMove === toMove) return `${sideLabel(game, toMove)} to move — your turn (ply ${live + 1}).`;
  if (snap.humanSides[toMove]) return `${sideLabel(game, toMove)} to move (ply ${live + 1}).`;
  const who = `${sideLabel(game, toMove)} — ${snap.players[toMove]}`;
  if (snap.paused && snap.holding) return `Paused before ply ${live + 1} (${who} to move): Play goes on, Step plays one move.`;
  if (snap.paused) return `Pausing: ${who} finishes the move it is thinking about (ply ${live + 1})…`;
  return `${who} is thinking… (ply ${live + 1})`;
}

export function drawGameInfo(): void {
  const snap = page.snapshot;
  const view = shown();
  if (!view) return;
  const { game, turns, ply } = view;
  const counts = pieceCounts();
  const players = view.preview ? page.preview!.players : snap!.players;
  const toMove = game.isTerminal(view.state) ? null : game.toMove(view.state);
  for (const side of [0, 1] as const) {
    const box = $(`side-${side}`);
    box.querySelector('.name')!.textContent = `${sideLabel(game, side)}: ${players[side]}`;
    box.querySelector('.score')!.textContent = `· ${counts[side]} ${counts[side] === 1 ? 'piece' : 'pieces'}`;
    box.classList.toggle('to-move', toMove === side && !(snap?.end && !view.preview));
    if (view.preview) box.querySelector('.clock')!.textContent = '';
  }
  updateClocks();
  $('status').textContent = snap || view.preview ? statusText(snap!) : '';

  const banner = $('banner');
  const end = !view.preview && snap?.end ? snap.end : null;
  banner.hidden = end === null;
  banner.textContent = end ? endText(game, snap!) : '';
  banner.dataset.reason = end?.reason ?? '';

  // Move list, two plies a row, clickable to view earlier positions (not a preview's: its ply box chooses).
  const list = $('move-list');
  list.replaceChildren();
  turns.forEach((turn, index) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `${game.symbols[turn.side]} ${turn.kind === 'pass' ? 'pass' : turn.move}`;
    button.setAttribute('aria-label', `ply ${index + 1}: ${game.sideNames[turn.side]} ${turn.kind === 'pass' ? 'passes' : turn.move}`);
    if (index + 1 === ply) button.setAttribute('aria-current', 'true');
    button.disabled = view.preview;
    button.addEventListener('click', () => showPly(index + 1));
    item.append(button);
    list.append(item);
  });
  list.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });

  document.body.dataset.ply = String(view.preview ? -1 : view.live);
  document.body.dataset.over = snap?.end && !view.preview ? '1' : '0';
  document.body.dataset.holding = snap?.holding ? '1' : '0';
}

export function startClockTicks(): void {
  setInterval(() => {
    if (page.snapshot?.clock) updateClocks();
  }, 200);
}

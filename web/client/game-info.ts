/**
 * The words around the board: each side's name, pieces and clock; whose turn it is; the result banner (why the game
 * ended, in the game's own terms, with a score only where the game has one); the move list.
 */
import type { AnyGame, Side } from '../../harness/games/game.js';
import { VERDICT_DESCRIPTIONS, type LossVerdict } from '../../harness/referee/verdict.js';
import { getGame } from '../../harness/games/registry.js';
import type { SessionSnapshot, TurnView } from '../server/protocol.js';
import { pieceCounts } from './board-view.js';
import { view as showPly } from './controls.js';
import { $, plural } from './dom.js';
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

/** The game's own word for its pieces ('1 disc', '2 stones'). */
function pieces(game: AnyGame, count: number): string {
  const [one, many] = game.pieceNoun ?? ['piece', 'pieces'];
  return plural(count, one, many);
}

/** A forced loss's verdict as the words after "lost by". */
const LOSS_WORDS: Readonly<Record<string, string>> = {
  timeout: 'timeout',
  illegal: 'illegal answers',
  tamper: 'changing the board',
  error: 'an error',
  crash: 'a crash',
  memory: 'memory',
  protocol: 'a protocol break',
};

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
  const by = LOSS_WORDS[end.reason] ?? end.reason;
  return `${name(end.winner as Side)} wins: ${game.sideNames[loser]} (${snap.players[loser]}) lost by ${by} — it ${why}${end.message ? `: ${end.message}` : ''}.`;
}

/** Why the page cannot act on its game now (down, restoring, lost), as the status line says it, or null. */
export function offlineText(): string | null {
  if (page.preview) return null;
  if (!page.connected) {
    const wait = page.retryInMs === null ? '' : ` (next try in ${Math.round(page.retryInMs / 100) / 10} s)`;
    return `Disconnected from the server: reconnecting${wait}… Moves and keys are not sent until it is back.`;
  }
  if (page.restoring) return 'The server restarted: sending it this game to referee again…';
  if (page.lost) return `Game lost on the server: ${page.lost}.`;
  return null;
}

function statusText(snap: SessionSnapshot): string {
  const view = shown()!;
  const { game, state, ply, live } = view;
  const offline = offlineText();
  if (offline) return offline;
  if (view.preview) {
    return `Loaded game, ply ${ply} of ${live}: "Play on from here" continues from this position with the players chosen above.`;
  }
  if (snap.end) return `Game over after ${plural(snap.turns.length, 'ply', 'plies')}.${page.watching ? ' (Watching: another tab plays this game.)' : ''}`;
  if (page.viewPly !== null) return `Viewing ply ${ply} of ${live}.`;
  if (game.isTerminal(state)) return 'Game over.';
  const toMove = game.toMove(state);
  if (page.watching) return `Watching (another tab plays this game): ${sideLabel(game, toMove)} to move (ply ${live + 1}).`;
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
    box.querySelector('.score')!.textContent = `· ${pieces(game, counts[side])}`;
    box.classList.toggle('to-move', toMove === side && !(snap?.end && !view.preview));
    if (view.preview) box.querySelector('.clock')!.textContent = '';
  }
  updateClocks();
  $('status').textContent = snap || view.preview ? statusText(snap!) : '';
  $('status').dataset.state = view.preview ? 'preview' : !page.connected ? 'down' : page.lost ? 'lost' : page.watching ? 'watching' : snap?.humanToMove !== null && snap?.humanToMove !== undefined && page.viewPly === null ? 'your-turn' : '';
  $('reconnect').hidden = page.connected;

  const banner = $('banner');
  const end = !view.preview && snap?.end ? snap.end : null;
  banner.hidden = end === null;
  banner.textContent = end ? endText(game, snap!) : '';
  banner.dataset.reason = end?.reason ?? '';

  drawMoveList(game, turns, ply, view.preview);
  drawPlyOutput(game, turns, ply, players);

  document.body.dataset.ply = String(view.preview ? -1 : view.live);
  document.body.dataset.over = snap?.end && !view.preview ? '1' : '0';
  document.body.dataset.holding = snap?.holding ? '1' : '0';
}

/** A Botzone bot's debug for the ply on the board, under it, as the report's replay prints a ply's output. */
function drawPlyOutput(game: AnyGame, turns: readonly TurnView[], ply: number, players: readonly string[]): void {
  const turn = ply > 0 ? turns[ply - 1] : undefined;
  const box = $('ply-output');
  box.hidden = turn?.debug === undefined;
  box.textContent = turn?.debug === undefined ? '' : `${sideLabel(game, turn.side)} — ${players[turn.side]}, ply ${ply}:\n[debug] ${turn.debug}`;
}

/**
 * The move list: a table with a column per side (headed by its name) and a numbered row per move pair — row n holds
 * the first side's and the second side's n-th moves, a pass written as such. A button per ply views that position
 * (not in a preview: its ply box chooses).
 */
function drawMoveList(game: AnyGame, turns: readonly TurnView[], ply: number, preview: boolean): void {
  const table = $('move-list');
  const head = table.querySelector('thead tr')!;
  const headers = [...head.querySelectorAll('th')];
  headers[1].textContent = sideLabel(game, 0);
  headers[2].textContent = sideLabel(game, 1);
  const body = table.querySelector('tbody')!;
  body.replaceChildren();
  let row: HTMLTableRowElement | null = null;
  let number = 0;
  turns.forEach((turn, index) => {
    // A new row for each first-side ply, or when the second side moves twice running (a game that skips a turn).
    if (row === null || turn.side === 0 || row.children[2].childElementCount > 0) {
      number++;
      row = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = String(number);
      row.append(th, document.createElement('td'), document.createElement('td'));
      body.append(row);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = turn.kind === 'pass' ? 'pass' : String(turn.move);
    button.setAttribute('aria-label', `ply ${index + 1}: ${game.sideNames[turn.side]} ${turn.kind === 'pass' ? 'passes' : turn.move}`);
    if (index + 1 === ply) button.setAttribute('aria-current', 'true');
    button.disabled = preview;
    button.addEventListener('click', () => showPly(index + 1));
    row.children[1 + turn.side].append(button);
  });
  $('move-list-empty').hidden = turns.length > 0;
  body.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
}

/** What a screen reader hears when a snapshot arrives: the other side's reply (an AI's, or any move while watching) and the end. */
export function announceSnapshot(next: SessionSnapshot): void {
  const before = page.snapshot;
  if (!before || before.id !== next.id || page.preview) return;
  const game = getGame(next.game);
  const words: string[] = [];
  if (next.turns.length > before.turns.length) {
    for (const turn of next.turns.slice(before.turns.length)) {
      if (next.humanSides[turn.side] && !page.watching) continue;
      const who = `${sideLabel(game, turn.side)} — ${next.players[turn.side]}`;
      words.push(turn.kind === 'pass' ? `${who} passed.` : `${who} played ${turn.move}.`);
    }
  }
  if (next.end && !before.end) words.push(endText(game, next));
  else if (words.length > 0 && next.humanToMove !== null && !page.watching) words.push(`Your turn: ${sideLabel(game, next.humanToMove)} to move.`);
  if (words.length > 0) $('announce').textContent = words.join(' ');
}

export function startClockTicks(): void {
  setInterval(() => {
    if (page.snapshot?.clock) updateClocks();
  }, 200);
}

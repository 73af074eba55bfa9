/**
 * The settings form (game, who plays each side, time, seed) and the game's buttons: restart, undo, redo, resign,
 * the AI-vs-AI pacing (pause, step, speed), and browsing earlier positions. Each button is enabled only when it can act.
 */
import type { ClientMessage, SideSpec, TimePolicy } from '../server/protocol.js';
import { whyNotSend } from './board-view.js';
import { reconnectNow, send } from './connection.js';
import { $, plural, say } from './dom.js';
import { page, render, type Welcome } from './page.js';

function playerOptions(select: HTMLSelectElement, gameId: string, keep: string): void {
  const info = page.welcome!.games.find((g) => g.id === gameId)!;
  select.replaceChildren();
  const add = (value: string, label: string): void => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    select.append(option);
  };
  add('human', 'Human');
  for (const level of info.levels) add(`ref:${level}`, `AI: ${level}`);
  page.welcome!.submissions.forEach((name, index) => add(`sub:${index}`, `Submission: ${name}`));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

export function gameChanged(): void {
  const gameId = $<HTMLSelectElement>('game').value;
  const info = page.welcome!.games.find((g) => g.id === gameId)!;
  playerOptions($<HTMLSelectElement>('black'), gameId, $<HTMLSelectElement>('black').value || 'human');
  playerOptions($<HTMLSelectElement>('white'), gameId, $<HTMLSelectElement>('white').value || `ref:${info.levels[0]}`);
  $<HTMLInputElement>('move-time').value = String(info.moveTimeMs / 1000);
  $<HTMLInputElement>('time-bank').value = info.timeBankMs > 0 ? String(info.timeBankMs / 1000) : '';
  $<HTMLInputElement>('strike-limit').value = info.strikeLimit > 0 ? String(info.strikeLimit) : '';
  $('seed-label').title = info.seeded ? 'The seed draws the board layout' : 'The seed drives the AIs’ randomness';
}

/** Fill the settings from the welcome and the URL's query (?game=…&black=…&white=…). */
export function setUpSettings(message: Welcome): void {
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
}

export function specOf(value: string): SideSpec {
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

/** The time bank and strikes as set on the page (empty or 0: none), as the assignment's timeBankMs and strikeLimit. */
export function timePolicy(): TimePolicy {
  const bank = Number($<HTMLInputElement>('time-bank').value);
  const strikes = Number($<HTMLInputElement>('strike-limit').value);
  return {
    timeBankMs: Number.isFinite(bank) && bank > 0 ? Math.min(3_600_000, Math.round(bank * 1000)) : 0,
    strikeLimit: Number.isInteger(strikes) && strikes > 0 ? Math.min(100, strikes) : 0,
  };
}

/** Start the game again (R): the moves it discards come back with Undo until the next move, and the page says so. */
export function restart(): void {
  const snap = page.snapshot;
  if (!snap || snap.kind !== 'play') return;
  const unsent = whyNotSend();
  if (unsent) return say(unsent);
  send({ type: 'restart' });
}

export function newGame(): void {
  const [black, white] = chosenSides();
  const seedText = $<HTMLInputElement>('seed').value.trim();
  const message: ClientMessage = { type: 'new', game: $<HTMLSelectElement>('game').value, black, white };
  if (seedText !== '' && /^\d+$/.test(seedText)) message.seed = Number(seedText);
  const time = moveTimeMs();
  if (time !== undefined) message.moveTimeMs = time;
  Object.assign(message, timePolicy());
  if (!send(message)) return say('not connected to the server: the new game was not started; the page reconnects by itself');
  page.preview = null;
  page.lost = null;
  $('load-panel').hidden = true;
}

/** Resign for the person at this page (the server picks the side: the one to move, or the only human one). */
export function resign(): void {
  const snap = page.snapshot;
  if (!snap || snap.kind !== 'play' || page.preview) return;
  if (snap.end) return say('the game is over already: R starts it again');
  const unsent = whyNotSend();
  if (unsent) return say(unsent);
  send({ type: 'resign' });
}

export function view(ply: number | null): void {
  if (!page.snapshot || page.preview) return;
  const live = page.snapshot.turns.length;
  page.viewPly = ply === null || ply >= live ? null : Math.max(0, ply);
  render();
}

export function browse(delta: number): void {
  if (!page.snapshot || page.preview) return;
  const live = page.snapshot.turns.length;
  view((page.viewPly ?? live) + delta);
}

/** Buttons follow the game: what cannot act now is disabled. */
export function drawControls(): void {
  const snap = page.snapshot;
  if (!snap) return;
  const isPlay = snap.kind === 'play';
  const over = snap.end !== null;
  // A watching tab, or one whose server is down, cannot change the game: its buttons say so by being disabled
  // (the keys say it in words). Save still works: a game the server lost is saved from the page's own copy.
  const changes = whyNotSend() === null;
  $<HTMLButtonElement>('undo').disabled = !snap.canUndo || !changes;
  $<HTMLButtonElement>('redo').disabled = !snap.canRedo || !changes;
  $<HTMLButtonElement>('restart').disabled = !isPlay || !changes;
  $<HTMLButtonElement>('save').disabled = !isPlay;
  const aiVsAi = isPlay && !snap.humanSides[0] && !snap.humanSides[1];
  $<HTMLButtonElement>('resign').disabled = !isPlay || over || aiVsAi || !changes;
  $('resign').hidden = aiVsAi;
  $('ai-controls').hidden = !aiVsAi;
  $('pause').textContent = snap.paused ? 'Play' : 'Pause';
  $<HTMLButtonElement>('pause').disabled = over || !changes;
  $<HTMLButtonElement>('step').disabled = over || !snap.paused || !changes;
  $<HTMLSelectElement>('speed').value = String(snap.delayMs);
  if (isPlay && $<HTMLSelectElement>('game').value !== snap.game && !page.preview) {
    $<HTMLSelectElement>('game').value = snap.game;
    gameChanged();
  }
  if (isPlay && $<HTMLInputElement>('seed').value === '') $<HTMLInputElement>('seed').placeholder = `random (now ${snap.seed})`;
  $('view-note').hidden = page.viewPly === null || page.preview !== null;
  $('undo').title = snap.discardedPlies ? `Undo (U or W): bring back the game Restart discarded (${plural(snap.discardedPlies, 'ply', 'plies')})` : snap.end?.reason === 'resign' ? 'Undo (U or W): take back the resignation' : 'Undo (U or W)';
}

export function wireControls(): void {
  $('new-game').addEventListener('click', newGame);
  $('game').addEventListener('change', gameChanged);
  $('restart').addEventListener('click', restart);
  $('undo').addEventListener('click', () => send({ type: 'undo' }));
  $('reconnect').addEventListener('click', reconnectNow);
  $('redo').addEventListener('click', () => send({ type: 'redo' }));
  $('resign').addEventListener('click', resign);
  $('show-legal').addEventListener('change', render);
  $('show-numbers').addEventListener('change', render);
  $('live').addEventListener('click', () => view(null));
  $('pause').addEventListener('click', () => send({ type: page.snapshot?.paused ? 'resume' : 'pause' }));
  $('step').addEventListener('click', () => send({ type: 'step' }));
  $('speed').addEventListener('change', () => send({ type: 'speed', delayMs: Number($<HTMLSelectElement>('speed').value) }));
}

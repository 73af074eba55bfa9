/**
 * Save downloads the server's record of the game (or, when the server lost it, the page's own copy of its moves);
 * Load reads a file (a saved game, a `referee play --save` record, or a games.jsonl with one game a line), checks
 * every move with the game's rules before showing anything (a bad file is refused in the game's words; a result
 * that does not follow from the moves is dropped and said so), shows its position with a summary in words, and
 * "Play on from here" asks the server to referee it from the chosen ply (the server checks it all again).
 */
import { RECORD_FORMAT } from '../../harness/referee/record.js';
import type { ClientMessage, SessionSnapshot } from '../server/protocol.js';
import { send } from './connection.js';
import { gameChanged, specOf } from './controls.js';
import { $, say } from './dom.js';
import { page, render } from './page.js';
import { geometryOf, loadedGame, sideLabel, type LoadedGame } from './positions.js';

let loaded: Record<string, unknown>[] = [];
/** The file's name, for refusals. */
let loadedName = '';

/** The page's copy of a game as an unfinished record (no result: a server referees it again from these moves). */
export function recordOfSnapshot(snap: SessionSnapshot): Record<string, unknown> {
  return {
    format: RECORD_FORMAT,
    game: snap.game,
    players: snap.players,
    seed: snap.seed,
    initialState: snap.initialState,
    turns: snap.turns.map((turn, index) => ({
      ply: index + 1,
      side: turn.side,
      kind: turn.kind,
      ...(turn.move !== undefined ? { move: turn.move } : {}),
      wallMs: turn.wallMs ?? 0,
      ...(turn.bankLeftMs !== undefined ? { bankLeftMs: turn.bankLeftMs } : {}),
      ...(turn.strikes !== undefined ? { strikes: turn.strikes } : {}),
    })),
  };
}

function saveGame(): void {
  const snap = page.snapshot;
  if (!snap || snap.kind !== 'play') return;
  const link = document.createElement('a');
  let blob: string | null = null;
  if (page.lost || !page.connected) {
    // The server does not have it (or cannot be reached): the moves this page holds.
    blob = URL.createObjectURL(new Blob([`${JSON.stringify(recordOfSnapshot(snap), null, 1)}\n`], { type: 'application/json' }));
    link.href = blob;
    link.download = `${snap.game}-ply-${snap.turns.length}.json`;
  } else {
    link.href = `/api/games/${snap.id}/record.json${location.search}`;
    link.download = '';
  }
  document.body.append(link);
  link.click();
  link.remove();
  if (blob) setTimeout(() => URL.revokeObjectURL(blob!), 60_000);
}

/** A record from one JSON value: a GameRecord, or a games.jsonl entry wrapping one in `record`. */
function recordOf(json: unknown): Record<string, unknown> | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const object = json as Record<string, unknown>;
  if (object.format === undefined && typeof object.record === 'object' && object.record !== null) return object.record as Record<string, unknown>;
  return object;
}

/** "Gomoku 15x15 …: human (Black) vs random (White), 31 plies, Black won (five in a row)". */
function summary(preview: LoadedGame): string {
  const { game, players, turns, record } = preview;
  const end = record.end as { winner?: number | null; reason?: string } | undefined;
  let result = 'unfinished';
  if (end && typeof end === 'object') {
    const winner = end.winner === 0 || end.winner === 1 ? `${game.sideNames[end.winner]} won` : 'a draw';
    let why = end.reason === 'score' ? '' : ` (${String(end.reason)})`;
    const last = preview.states[preview.states.length - 1];
    if (end.reason === 'score' && game.isTerminal(last)) why = ` (${geometryOf(game).ending(last).reason})`;
    result = `${winner}${why}`;
  }
  else if (game.isTerminal(preview.states[preview.states.length - 1])) {
    const ending = geometryOf(game).ending(preview.states[preview.states.length - 1]);
    result = `over by its moves: ${ending.reason}`;
  }
  const plies = `${turns.length} ${turns.length === 1 ? 'ply' : 'plies'}`;
  return `${game.title}: ${players[0]} (${game.sideNames[0]}) vs ${players[1]} (${game.sideNames[1]}), ${plies}, ${result}.`;
}

function showPly(): void {
  const preview = page.preview;
  if (!preview) return;
  const wanted = Number($<HTMLInputElement>('load-ply').value);
  preview.ply = Number.isInteger(wanted) ? Math.max(0, Math.min(wanted, preview.states.length - 1)) : preview.states.length - 1;
  const { game, states, ply } = preview;
  const state = states[ply];
  const next = game.isTerminal(state) ? 'the game is over there' : `${sideLabel(game, game.toMove(state))} to move`;
  $('load-position').textContent = `Ply ${ply} of ${preview.turns.length} on the board: ${next}.`;
  render();
}

function chooseLoaded(index: number): void {
  const result = loadedGame(loaded[index]);
  if (typeof result === 'string') {
    // Refused before anything is shown: the board keeps the game being played.
    page.preview = null;
    $('load-panel').hidden = true;
    say(`${loadedName}${loaded.length > 1 ? ` (game #${index + 1})` : ''} cannot be loaded: ${result}`, true);
    render();
    return;
  }
  page.preview = result;
  $('load-summary').textContent = summary(result) + (result.droppedEnd ? ` Its result was not kept: ${result.droppedEnd}.` : '');
  const input = $<HTMLInputElement>('load-ply');
  input.max = String(result.states.length - 1);
  input.value = String(result.states.length - 1);
  const select = $<HTMLSelectElement>('game');
  if ([...select.options].some((o) => o.value === result.game.id)) {
    select.value = result.game.id;
    gameChanged();
  }
  showPly();
}

async function loadFile(file: File): Promise<void> {
  const text = (await file.text()).trim();
  const records: Record<string, unknown>[] = [];
  try {
    const record = recordOf(JSON.parse(text));
    if (record) records.push(record);
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
  if (records.length === 0) {
    say(`${file.name} holds no game record: load a file saved here, from \`referee play --save\`, or a games.jsonl`, true);
    return;
  }
  loaded = records;
  loadedName = file.name;
  const pick = $<HTMLSelectElement>('load-pick');
  pick.replaceChildren();
  records.forEach((record, index) => {
    const option = document.createElement('option');
    option.value = String(index);
    const turns = Array.isArray(record.turns) ? record.turns.length : 0;
    const players = Array.isArray(record.players) ? `${String(record.players[0])} vs ${String(record.players[1])}` : 'unknown players';
    option.textContent = `#${index + 1}: ${players}, ${turns} ${turns === 1 ? 'ply' : 'plies'}`;
    pick.append(option);
  });
  $('load-pick-label').hidden = records.length < 2;
  $('load-panel').hidden = false;
  say('');
  chooseLoaded(0);
  if (!page.preview && records.length === 1) $<HTMLInputElement>('load-file').value = '';
}

function playOn(): void {
  const preview = page.preview;
  if (!preview) return;
  const [black, white] = [specOf($<HTMLSelectElement>('black').value), specOf($<HTMLSelectElement>('white').value)];
  const ply = Number($<HTMLInputElement>('load-ply').value);
  const message: ClientMessage = { type: 'load', record: preview.record, black, white };
  if (Number.isInteger(ply) && ply >= 0) message.ply = ply;
  send(message);
}

/** Leave the preview: the board shows the game being played again. */
function closePreview(): void {
  page.preview = null;
  $('load-panel').hidden = true;
  $<HTMLInputElement>('load-file').value = '';
  render();
}

/** The server accepted a loaded game (or started another): the preview gives way to it. */
export function previewReplaced(): void {
  if (!page.preview) return;
  page.preview = null;
  $('load-panel').hidden = true;
  $<HTMLInputElement>('load-file').value = '';
}

export function wireSaveLoad(): void {
  $('save').addEventListener('click', saveGame);
  $<HTMLInputElement>('load-file').addEventListener('change', () => {
    const file = $<HTMLInputElement>('load-file').files?.[0];
    if (file) void loadFile(file);
  });
  $('play-on').addEventListener('click', playOn);
  $('load-cancel').addEventListener('click', closePreview);
  $('load-ply').addEventListener('input', showPly);
  $('load-pick').addEventListener('change', () => chooseLoaded(Number($<HTMLSelectElement>('load-pick').value)));
}

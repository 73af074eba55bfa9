/**
 * Save downloads the server's record of the game; Load reads a file (a saved game, a `referee play --save` record,
 * or a games.jsonl with one game a line), shows its position on the board at once with a summary in words, and
 * "Play on from here" asks the server to referee it from the chosen ply (the server re-checks every move).
 */
import type { ClientMessage } from '../server/protocol.js';
import { send } from './connection.js';
import { gameChanged, specOf } from './controls.js';
import { $, say } from './dom.js';
import { page, render } from './page.js';
import { geometryOf, loadedGame, sideLabel, type LoadedGame } from './positions.js';

let loaded: Record<string, unknown>[] = [];

function saveGame(): void {
  const snap = page.snapshot;
  if (!snap || snap.kind !== 'play') return;
  const link = document.createElement('a');
  link.href = `/api/games/${snap.id}/record.json${location.search}`;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
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
    if (end.reason === 'score' && preview.problem === null && game.isTerminal(last)) why = ` (${geometryOf(game).ending(last).reason})`;
    result = `${winner}${why}`;
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
    page.preview = null;
    $('load-panel').hidden = true;
    say(result);
    render();
    return;
  }
  page.preview = result;
  $('load-summary').textContent = summary(result) + (result.problem ? ` It stops early: ${result.problem}.` : '');
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
    say(`${file.name} holds no game record: load a file saved here, from \`referee play --save\`, or a games.jsonl`);
    return;
  }
  loaded = records;
  const pick = $<HTMLSelectElement>('load-pick');
  pick.replaceChildren();
  records.forEach((record, index) => {
    const option = document.createElement('option');
    option.value = String(index);
    const turns = Array.isArray(record.turns) ? record.turns.length : 0;
    const players = Array.isArray(record.players) ? `${String(record.players[0])} vs ${String(record.players[1])}` : 'unknown players';
    option.textContent = `#${index + 1}: ${players}, ${turns} plies`;
    pick.append(option);
  });
  $('load-pick-label').hidden = records.length < 2;
  $('load-panel').hidden = false;
  say('');
  chooseLoaded(0);
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

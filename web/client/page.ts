/**
 * What the page knows, in one place: the server's welcome and latest snapshot, the ply being viewed, a loaded game
 * being previewed. Every room of the client reads it; a change calls `render()`, which runs each room's drawing.
 */
import type { ServerMessage, SessionSnapshot } from '../server/protocol.js';
import type { LoadedGame } from './positions.js';

export type Welcome = Extract<ServerMessage, { type: 'welcome' }>;

export const page = {
  welcome: null as Welcome | null,
  snapshot: null as SessionSnapshot | null,
  /** performance.now() when the snapshot arrived (the running clock counts from it). */
  snapshotAt: 0,
  /** The ply shown: null follows the game, a number views an earlier position. */
  viewPly: null as number | null,
  /** The board cell the keyboard is on (its name), kept across redraws. */
  focusedCell: null as string | null,
  /** A loaded file's game shown on the board until "Play on from here" (or a new game) replaces it. */
  preview: null as LoadedGame | null,
  /** The websocket is open (while it is down nothing can be sent, and the page says so). */
  connected: false,
  /** The backoff before the next connection attempt, while down. */
  retryInMs: null as number | null,
  /** This tab only watches its game (another tab created it): moves, undo and restart are refused. */
  watching: false,
  /** A restore of this page's game was sent to a restarted server and is not answered yet. */
  restoring: false,
  /** Why the game on the board is no longer on the server (it restarted and the game could not be restored), or null. */
  lost: null as string | null,
  /** A note that stays under the board until the person's next move (the game was restored after a restart). */
  notice: null as string | null,
  /** The notice is about the next game the server sends (a fresh one for a link to a lost game): keep it then. */
  keepNotice: false,
};

const drawers: (() => void)[] = [];

/** Register a room's drawing; `render()` runs them all in registration order. */
export function onRender(draw: () => void): void {
  drawers.push(draw);
}

export function render(): void {
  for (const draw of drawers) draw();
}

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
};

const drawers: (() => void)[] = [];

/** Register a room's drawing; `render()` runs them all in registration order. */
export function onRender(draw: () => void): void {
  drawers.push(draw);
}

export function render(): void {
  for (const draw of drawers) draw();
}

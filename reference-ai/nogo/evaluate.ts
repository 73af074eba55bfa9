/**
 * NoGo evaluation: mobility. The side that runs out of legal moves first loses, so a position is worth the
 * difference between the side to move's legal moves and the opponent's on the same board. Cells only one side
 * may ever play (its "eyes") count in that side's favour automatically.
 */
import { legalCells } from '../../harness/games/nogo/core.js';
import type { NoGoState } from '../../harness/games/nogo/index.js';

const scratch = new Int16Array(81);

export function mobility(cells: Uint8Array, piece: number): number {
  return legalCells(cells, piece, scratch);
}

/** Legal moves of the side to move minus the opponent's. */
export function evaluateNoGo(state: NoGoState): number {
  const mine = state.side + 1;
  return mobility(state.cells, mine) - mobility(state.cells, 3 - mine);
}

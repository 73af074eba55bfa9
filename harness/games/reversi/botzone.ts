/** Reversi on Botzone: {"x": column, "y": row}, {-1, -1} for "you move first" and for a pass (README: Botzone). */
import { gridCodec } from '../common/botzone.js';
import { squareName, toSquare } from './board.js';

export const reversiBotzone = gridCodec({
  name: 'Reversi',
  size: 8,
  simpleInteraction: true,
  cellName: squareName,
  parseCell: (text) => toSquare(text),
  passes: true,
});

/** Gomoku on Botzone: {"x": column, "y": row} on 15x15, {-1, -1} for "you move first"; JSON only (README: Botzone). */
import { gridCodec } from '../common/botzone.js';
import { cellName, parseCell, SIZE } from './core.js';

export const gomokuBotzone = gridCodec({ name: 'Gomoku', size: SIZE, simpleInteraction: false, cellName, parseCell, passes: false });

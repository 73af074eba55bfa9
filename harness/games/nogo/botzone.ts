/** NoGo on Botzone: {"x": column, "y": row} on 9x9, {-1, -1} for "you move first" only (README: Botzone). */
import { gridCodec } from '../common/botzone.js';
import { cellName, parseCell, SIZE } from './core.js';

export const nogoBotzone = gridCodec({ name: 'NoGo', size: SIZE, simpleInteraction: true, cellName, parseCell, passes: false });

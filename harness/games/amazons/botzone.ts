/**
 * Amazons on Botzone: a turn is {"x0", "y0", "x1", "y1", "x2", "y2"} — the queen's square, its destination and the
 * arrow's square, x the file and y the row from the top (A1 is (0, 0)); all six -1 for "you move first". Amazons
 * has no pass. Simple interaction: the six numbers on one line (README: Botzone).
 */
import type { BotzoneCodec } from '../common/botzone.js';
import { cellName, moveArrow, moveFrom, moveTo, parseMove, STRIDE } from './core.js';

const KEYS = ['x0', 'y0', 'x1', 'y1', 'x2', 'y2'] as const;
const NONE = Object.freeze({ x0: -1, y0: -1, x1: -1, y1: -1, x2: -1, y2: -1 });

function toBotzone(move: string | null): Record<(typeof KEYS)[number], number> {
  const packed = move === null ? null : parseMove(move);
  if (packed === null) return { ...NONE };
  const [from, to, arrow] = [moveFrom(packed), moveTo(packed), moveArrow(packed)];
  return { x0: from % STRIDE, y0: Math.floor(from / STRIDE), x1: to % STRIDE, y1: Math.floor(to / STRIDE), x2: arrow % STRIDE, y2: Math.floor(arrow / STRIDE) };
}

export const amazonsBotzone: BotzoneCodec = {
  name: 'Amazons',
  simpleInteraction: true,
  opening: () => ({ ...NONE }),
  encode: toBotzone,
  decode(response) {
    if (typeof response !== 'object' || response === null || Array.isArray(response)) {
      return { invalid: 'the response is not an object like {"x0": 2, "y0": 0, "x1": 2, "y1": 3, "x2": 5, "y2": 3}' };
    }
    const fields = response as Record<string, unknown>;
    const numbers = KEYS.map((key) => (typeof fields[key] === 'string' && /^-?\d+$/.test((fields[key] as string).trim()) ? Number(fields[key]) : fields[key]));
    if (!numbers.every((value) => Number.isInteger(value))) return { invalid: `x0, y0, x1, y1, x2 and y2 must all be integers (got ${JSON.stringify(response).slice(0, 80)})` };
    const [x0, y0, x1, y1, x2, y2] = numbers as number[];
    if ([x0, y0, x1, y1, x2, y2].some((value) => value < 0 || value >= STRIDE)) return { invalid: `(${numbers.join(', ')}) is off the board (Amazons has no pass)` };
    return { move: `${cellName(y0 * STRIDE + x0)}-${cellName(y1 * STRIDE + x1)}/${cellName(y2 * STRIDE + x2)}` };
  },
  toLine(value) {
    const fields = value as Record<string, number>;
    return KEYS.map((key) => String(fields[key])).join(' ');
  },
  fromLine(line) {
    const words = line.trim().split(/\s+/);
    if (words.length !== 6 || !words.every((word) => /^-?\d+$/.test(word))) return undefined;
    return Object.fromEntries(KEYS.map((key, i) => [key, Number(words[i])]));
  },
};

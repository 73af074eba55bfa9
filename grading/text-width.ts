/**
 * Terminal columns, not UTF-16 units: a CJK name takes two columns a character, so `padEnd` misaligns tables of
 * students' names. string-width measures what a terminal shows (East Asian wide characters, ANSI codes).
 */
import stringWidth from 'string-width';

/** Columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** `text` padded with spaces to `width` terminal columns (as padEnd, counting columns). */
export function padColumns(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
}

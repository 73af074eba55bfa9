/** The few DOM helpers every room uses. */
export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function svgElement(name: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** Whether the message shown is about something other than the position (a file that cannot be loaded). */
let keptOverMoves = false;

/**
 * The one-line message under the board (why a click did nothing, a server refusal); '' clears it. `keep`: the message
 * is not about the position, so the game's own updates leave it (sayForGame); the next message said replaces it.
 */
export function say(text: string, keep = false): void {
  $('message').textContent = text;
  keptOverMoves = keep && text !== '';
}

/**
 * What the server's view of the game says (its error, a notice, or nothing): an empty one clears a message about the
 * position it replaces, never a kept one — a load refused just before the game's first view must stay readable.
 */
export function sayForGame(text: string): void {
  if (text !== '' || !keptOverMoves) say(text);
}

/** "1 disc", "2 discs": a count with the word that fits it. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

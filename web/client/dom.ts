/** The few DOM helpers every room uses. */
export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function svgElement(name: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** The one-line message under the board (why a click did nothing, a server refusal); '' clears it. */
export function say(text: string): void {
  $('message').textContent = text;
}

/** "1 disc", "2 discs": a count with the word that fits it. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

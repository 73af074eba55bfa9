/**
 * Stack traces of the bundled CLI (scripts/bundle-cli.ts) name the .ts source files, through the chunks' linked
 * source maps, read only when a stack is printed. Node's own source-map support (process.setSourceMapsEnabled)
 * reads and parses every loaded chunk's map at start-up, ~20–30 ms of CPU of every quick command (a warm `referee
 * check` of a Python file: 274 → 245 ms); a stack is printed by almost none of them.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A frame's location: `file:///…/chunk-X.js:line:column`, inside parentheses or after `at `. */
const FRAME = /(file:\/\/\/[^\s()]+?\.js):(\d+):(\d+)/g;

/** `stack` with each frame in a file that has a linked `.map` beside it named by its source position. */
export function sourceMappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      let map: SourceMap | null = null;
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
      } catch {
        // no map beside it (node_modules, tsc's twins): the frame stays as it is
      }
      maps.set(url, map);
    }
    return maps.get(url)!;
  };
  return stack.replace(FRAME, (frame, url: string, line: string, column: string) => {
    const map = mapOf(url);
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
    if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return frame;
    const source = new URL(entry.originalSource, pathToFileURL(`${fileURLToPath(url)}.map`));
    return `${fileURLToPath(source)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

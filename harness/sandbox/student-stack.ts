/**
 * A stack as the student should read it: frames in their own files, paths relative to their submission (the
 * bundle's source map names files relative to the submission root, resolved next to the bundle the child ran:
 * its private staged folder, which Node may print relative to the child's working folder), without the host's
 * and Node's internal frames.
 */
const INTERNAL = /\((?:node:|.*[\\/]host-[0-9a-f]+\.c?js:)|^\s*at (?:node:|.*[\\/]host-[0-9a-f]+\.c?js:)|\bnode:internal\b/;

export function studentStack(stack: string, stagedDir: string | null): string {
  // Any path, absolute or relative, through the staged folder: its last part is a random, unique name.
  // Either separator: Windows' paths (the portable path) use backslashes.
  const folder = stagedDir?.replace(/[\\/]+$/, '').split(/[\\/]/).pop();
  // A path ends at a space, a parenthesis or a quote: Python prints File "/staged/…/AIPlayer.py", line 3.
  const prefix = folder ? new RegExp(`[^\\s("']*[\\\\/]${escapeRegExp(folder)}[\\\\/]`, 'g') : null;
  const kept = stack.split('\n').filter((line, index) => index === 0 || !/^\s+at /.test(line) || !INTERNAL.test(line));
  return kept.map((line) => (prefix ? line.replace(prefix, '') : line)).join('\n');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

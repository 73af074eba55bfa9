/**
 * A stack as the student should read it: frames in their own files, paths relative to their submission (the
 * bundle's source map names files relative to the submission root, resolved next to the bundle in the cache),
 * without the host's and Node's internal frames.
 */
const INTERNAL = /\((?:node:|.*[\\/]host-[0-9a-f]+\.c?js:)|^\s*at (?:node:|.*[\\/]host-[0-9a-f]+\.c?js:)|\bnode:internal\b/;

export function studentStack(stack: string, bundleDir: string): string {
  const prefix = bundleDir.endsWith('/') ? bundleDir : `${bundleDir}/`;
  const kept = stack.split('\n').filter((line, index) => index === 0 || !/^\s+at /.test(line) || !INTERNAL.test(line));
  return kept.map((line) => line.split(prefix).join('')).join('\n');
}

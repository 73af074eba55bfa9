#!/usr/bin/env node
/**
 * The `referee` command's entry (dist/cli/index.js after `npm run build`, which bundles it: scripts/bundle-cli.ts).
 * Stack traces it prints name the .ts files through the chunks' source maps, read only when a stack is printed
 * (cli/stack-trace.ts): Node's own source-map support would parse every loaded chunk's map at every start.
 *
 * Node's on-disk compile cache (module.enableCompileCache, Node >= 22.1) is deliberately not enabled: on Node 22.23
 * it gained nothing measurable at start-up, and with it a check pinned beside three CPU hogs timed out an 80 ms
 * player (tests/submission/check-load fails with it, passes without), and `cache clean` found the folder it had just
 * made.
 */
import { sourceMappedStack } from './stack-trace.js';

try {
  await import('./index.js');
} catch (error) {
  // A failure while the command's modules load (cli/index.ts reports every later one itself).
  console.error(`referee: internal error: ${error instanceof Error && error.stack ? sourceMappedStack(error.stack) : String(error)}`);
  process.exitCode = 3;
}

#!/usr/bin/env node
/**
 * The `referee` command's entry (dist/cli/index.js after `npm run build`, which bundles it: scripts/bundle-cli.ts).
 * It turns source maps on before the command (cli/index.ts) is loaded, so a stack trace names the .ts files rather
 * than bundle chunks.
 *
 * Node's on-disk compile cache (module.enableCompileCache, Node >= 22.1) is deliberately not enabled: on Node 22.23
 * it gained nothing measurable at start-up, and with it a check pinned beside three CPU hogs timed out an 80 ms
 * player (tests/submission/check-load fails with it, passes without), and `cache clean` found the folder it had just
 * made.
 */
process.setSourceMapsEnabled(true);

await import('./index.js');

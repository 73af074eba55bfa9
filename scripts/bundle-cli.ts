/**
 * Part of `npm run build` (issue #35): bundles the `referee` command with esbuild into dist/cli/index.js plus one
 * chunk per subcommand and shared chunks, all in dist/cli/. A quick command (`referee check`) then loads a handful
 * of files instead of ~150 ES modules, each resolved, read and compiled on its own (most of its start-up).
 *
 * The bundle is built from the TypeScript sources (isolatedModules: each file compiles alone, as tsc emits it) and
 * runs beside tsc's output, which it still needs: the fork workers, the sandbox's hosts, the compiled validators and
 * the templates are found relative to each module's own file. So every `import.meta.url` is rewritten to the URL of
 * the module's tsc twin under dist/ (computed from the chunk's own URL: chunks sit beside the entry), and every path
 * a module derives from it is the same as without the bundle. Packages stay external (loaded from node_modules as
 * before): optional peers must fail to load by name, esbuild and typescript carry binaries or snapshots.
 * Source maps (linked, pointing at the .ts files) name the source files in stack traces (cli/stack-trace.ts).
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const OUT = join(ROOT, 'dist/cli');
/** The bundle's own files: the entry, and chunks named <name>-<8-character hash>.js (tsc's twins have no hash). */
const CHUNK = /-[A-Z0-9]{8}\.js(\.map)?$/;

/** Packages bundled into the CLI; every other package (dependencies and peers) is loaded from node_modules. */
const BUNDLED = new Set(['commander', 'fastest-levenshtein']);

function externalPackages(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const names = new Set(['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {})));
  return [...names].filter((name) => !BUNDLED.has(name)).flatMap((name) => [name, `${name}/*`]);
}

/** The rewrite: a module's `import.meta.url` becomes its tsc twin's URL, relative to the chunk that holds it. */
const twinUrls: esbuild.Plugin = {
  name: 'tsc-twin-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${join(ROOT, 'node_modules')}/`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta')) return { contents: source, loader: 'ts' };
      const twin = relative(OUT, join(ROOT, 'dist', relative(ROOT, args.path))).replace(/\.ts$/, '.js');
      const rewritten = source.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(twin.split('\\').join('/'))}, import.meta.url).href`);
      if (/\bimport\.meta\.(?!url\b)/.test(rewritten.replace(/new URL\([^)]*, import\.meta\.url\)/g, ''))) {
        throw new Error(`${relative(ROOT, args.path)}: only import.meta.url is rewritten for the bundle (see scripts/bundle-cli.ts)`);
      }
      return { contents: rewritten, loader: 'ts' };
    });
  },
};

// Last build's chunks go (their names change with their content); tsc's dist/cli/*.js twins stay.
for (const name of readdirSync(OUT)) if (CHUNK.test(name) || name === 'index.js.map') rmSync(join(OUT, name));

const result = await esbuild.build({
  absWorkingDir: ROOT,
  // cli/start.ts sets up loading, then imports cli/index.ts: a chunk of its own, read after that set-up.
  entryPoints: { index: join(ROOT, 'cli/start.ts') },
  outdir: OUT,
  allowOverwrite: true, // dist/cli/index.js is tsc's twin until now
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Small pure-JS packages every command loads go in (Node would scan each CommonJS file for its exports on
  // every start); the rest stay in node_modules: optional peers must fail to load by name, esbuild and typescript
  // carry binaries or snapshots, and the heavy ones load only with the commands that use them.
  external: externalPackages(),
  // The bundled CommonJS code's require() of Node's built-ins.
  banner: { js: "import { createRequire as __refereeRequire } from 'node:module'; const require = __refereeRequire(import.meta.url);" },
  tsconfig: join(ROOT, 'tsconfig.build.json'),
  chunkNames: '[name]-[hash]',
  keepNames: true, // errors and classes keep the names messages print
  sourcemap: 'linked',
  sourcesContent: false,
  plugins: [twinUrls],
  metafile: true,
  logLevel: 'warning',
});

const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
const size = files.reduce((sum, file) => sum + statSync(join(ROOT, file)).size, 0);
console.log(`bundled the CLI: ${files.length} files, ${(size / 1024).toFixed(0)} KB in ${relative(ROOT, OUT)}`);

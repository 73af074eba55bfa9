/**
 * What the installation builds ahead (issue #35): the C++ host and the sandbox's native tools, compiled by
 * `npm run build` and by the package's postinstall (scripts/prepare-installation.mjs) into <package>/prebuilt, each under the
 * very name it has in the cache (named by the hash of its sources). A cache that lacks an entry copies it from there
 * instead of compiling it: a cold C++ check paid ~1.8 s of g++ CPU for the host, and every fresh cache ~0.3 s of cc
 * for the taskstats reader. So the first check after `npm install` finds them, whatever REFEREE_CACHE_DIR it uses,
 * whichever user runs it (a root-installed package serves a non-root grader), and after `referee cache clean`.
 *
 * The folder belongs to the installation: whoever can write it can write the grader's own JavaScript beside it, so
 * it is trusted like that code. It is never packed (package.json "files" leaves it out): a copy is used only where
 * it was built for — the same platform, architecture and C library as the process that wrote it (stamp.json), and
 * the host must start here. REFEREE_NO_PREBUILT=1 ignores it (a machine with nothing built at install).
 */
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const STAMP = 'stamp.json';

/** The package's root: two folders up under ts-jest (harness/sandbox), three from dist/harness/sandbox. */
function packageRoot(): string | null {
  for (const relative of ['../../', '../../../']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'harness', 'sandbox', 'cpp', 'host.cpp'))) return dir;
  }
  return null;
}

/** <package>/prebuilt (it may not exist), or null when switched off or the package's root is not found. */
export function prebuiltDir(): string | null {
  if (process.env.REFEREE_NO_PREBUILT === '1') return null;
  const root = packageRoot();
  return root ? join(root, 'prebuilt') : null;
}

/** What a prebuilt binary needs of the machine it runs on. */
interface Stamp {
  platform: string;
  arch: string;
  /** glibc's version at run time ('' for musl and other C libraries, whose binaries are then not shared across them). */
  libc: string;
}

let here: Stamp | null = null;

/** This process's stamp (process.report reads the C library's version: ~20 ms, paid only on a cache miss). */
function machineStamp(): Stamp {
  if (here) return here;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  here = { platform: process.platform, arch: process.arch, libc: header?.glibcVersionRuntime ?? '' };
  return here;
}

let fits: boolean | null = null;

/** Whether the prebuilt folder was written on a machine like this one (a node_modules copied elsewhere is not). */
function prebuiltFits(dir: string): boolean {
  if (fits !== null) return fits;
  try {
    const stamp = JSON.parse(readFileSync(join(dir, STAMP), 'utf8')) as Partial<Stamp>;
    const mine = machineStamp();
    fits = stamp.platform === mine.platform && stamp.arch === mine.arch && stamp.libc === mine.libc;
  } catch {
    fits = false; // no stamp: not written by prepareInstallation
  }
  return fits;
}

/**
 * Copy the prebuilt entry `name` (a file or a folder of files) to `target` in the cache, if the installation has
 * it and it was built for this machine, and `works` (given the copy's path) says it runs here. Written under a
 * temporary name and renamed, as a build would be; modes set explicitly (an installer's umask does not narrow them).
 * True when `target` is then there.
 */
export function takePrebuilt(name: string, target: string, works: (path: string) => boolean = () => true): boolean {
  const dir = prebuiltDir();
  if (!dir) return false;
  const source = join(dir, name);
  try {
    if (!existsSync(source) || !prebuiltFits(dir)) return false;
    const temporary = `${target}.${process.pid}.prebuilt.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    if (statSync(source).isDirectory()) {
      cpSync(source, temporary, { recursive: true });
      chmodSync(temporary, 0o755);
      for (const file of readdirSync(temporary)) chmodSync(join(temporary, file), statSync(join(source, file)).mode & 0o111 ? 0o755 : 0o644);
    } else {
      copyFileSync(source, temporary);
      chmodSync(temporary, statSync(source).mode & 0o111 ? 0o755 : 0o644);
    }
    if (!works(temporary)) {
      rmSync(temporary, { recursive: true, force: true });
      return false;
    }
    try {
      renameSync(temporary, target);
    } catch {
      // Another process put the same entry there first (a folder cannot replace a folder): same content by its name.
      rmSync(temporary, { recursive: true, force: true });
    }
    return existsSync(target);
  } catch {
    return false; // unreadable, a cache that refuses the write: the caller builds it as before
  }
}

/** The prebuilt folder, made world-readable and stamped for this machine; null where it cannot be written. */
export function openPrebuiltDir(): string | null {
  const dir = prebuiltDir();
  if (!dir) return null;
  try {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, STAMP), `${JSON.stringify(machineStamp())}\n`, { mode: 0o644 });
    chmodSync(join(dir, STAMP), 0o644);
    return dir;
  } catch {
    return null;
  }
}

/**
 * Remove entries of `dir` that no current build names (the sources changed since they were built: a rebuild of a
 * working copy would otherwise pile them up), keeping the stamp.
 */
export function prunePrebuilt(dir: string, keep: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === STAMP || keep.includes(name)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

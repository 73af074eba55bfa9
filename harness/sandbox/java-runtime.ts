/**
 * Java Botzone bots: finding the JDK and the JVM's flags. The JDK is optional — nothing else needs it — so it is
 * found by files alone (no JVM start, which costs ~0.3–0.8 s): $REFEREE_JAVA_HOME when set (the only candidate: a
 * wrong path is an error), else `javac` on PATH resolved through its symlinks (/usr/bin/javac →
 * /etc/alternatives/javac → /usr/lib/jvm/java-17-openjdk-amd64/bin/javac), with `java` from the same home.
 *
 * Debian's JDK keeps part of its configuration in /etc (lib/jvm.cfg and conf/*.properties are symlinks into
 * /etc/java-17-openjdk): the JVM does not start without jvm.cfg, so those folders are read-only binds of the sandbox.
 *
 * Memory: Botzone's 256 MB is the whole process. Where a cgroup holds resident memory it is the wall; elsewhere
 * (a non-root grader) the address-space backstop is far above the JVM's reservations, so the JVM's own ceilings
 * derived from the limit are the bound (javaMemoryFlags), and the first OutOfMemoryError ends the bot (a `memory`
 * ruling, as Botzone's judge ends a bot at its limit).
 */
import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { SYSTEM_READ_DIRS } from './system-paths.js';

export interface JavaRuntime {
  /** The real `java` and `javac` binaries. */
  java: string;
  javac: string;
  /** The JDK's home (the folder above bin/). */
  home: string;
  /** Folders beyond /usr, /lib, /bin the JVM reads (the home when it lives elsewhere, /etc/java-NN-openjdk). */
  binds: string[];
  /** Where it was found: 'REFEREE_JAVA_HOME' or 'PATH'. */
  source: string;
}

/** The fix when there is no JDK: one line, for the check and every command. */
export const NO_JAVA =
  'Java bots need a JDK (javac and java) and none was found: install it (Debian/Ubuntu: apt-get install default-jdk-headless) or set REFEREE_JAVA_HOME to a JDK';

let found: JavaRuntime | null | undefined;
let chosenProblem: string | null = null;

function insideSystem(path: string): boolean {
  return SYSTEM_READ_DIRS.some((dir) => path === dir || path.startsWith(`${dir}/`));
}

/** The folders outside the system ones that the JDK's configuration links point into (Debian: /etc/java-17-openjdk). */
function configDirs(home: string): string[] {
  const dirs = new Set<string>();
  const links = [join(home, 'lib', 'jvm.cfg')];
  for (const folder of [join(home, 'conf'), join(home, 'conf', 'security')]) {
    try {
      for (const name of readdirSync(folder)) links.push(join(folder, name));
    } catch {
      // no such folder in this JDK
    }
  }
  for (const link of links) {
    try {
      readlinkSync(link);
    } catch {
      continue; // not a symlink
    }
    try {
      const target = realpathSync(link);
      if (insideSystem(target)) continue;
      // The package's own folder under /etc (/etc/java-17-openjdk/security/java.security → /etc/java-17-openjdk).
      const parts = target.split('/');
      dirs.add(parts[1] === 'etc' && parts.length > 3 ? `/etc/${parts[2]}` : dirname(target));
    } catch {
      // dangling: the JVM does without it
    }
  }
  return [...dirs];
}

function fromHome(home: string, source: string): JavaRuntime | null {
  const java = join(home, 'bin', 'java');
  const javac = join(home, 'bin', 'javac');
  if (!existsSync(java) || !existsSync(javac)) return null;
  const realHome = realpathSync(home);
  return { java: realpathSync(java), javac: realpathSync(javac), home: realHome, binds: [...(insideSystem(realHome) ? [] : [realHome]), ...configDirs(realHome)], source };
}

/** The JDK Java bots compile and run with, found once per process; null when there is none. */
export function findJava(): JavaRuntime | null {
  if (found !== undefined) return found;
  const chosen = process.env.REFEREE_JAVA_HOME;
  if (chosen) {
    found = existsSync(chosen) ? fromHome(resolve(chosen), 'REFEREE_JAVA_HOME') : null;
    if (!found) chosenProblem = `REFEREE_JAVA_HOME=${chosen} is not a JDK (no bin/java and bin/javac): point it at one, or unset it to use javac on PATH`;
    return found;
  }
  found = null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const javac = dir ? join(dir, 'javac') : '';
    if (!javac || !existsSync(javac)) continue;
    found = fromHome(dirname(dirname(realpathSync(javac))), 'PATH');
    if (found) break;
  }
  return found;
}

/** The one line saying why there is no JDK (call after findJava() returned null). */
export function noJava(): string {
  return chosenProblem ?? NO_JAVA;
}

/** One line for `referee doctor`. */
export function describeJava(): string {
  const java = findJava();
  return java ? `${java.home} (from ${java.source}): Java Botzone bots compile with javac and run as java Main` : `${noJava()} (only Java Botzone bots need it)`;
}

/**
 * The JVM's ceilings for a bot with `memoryMb` in all: the heap gets the limit less 64 MB (192 MB of Botzone's
 * 256), class metadata, compiled code and direct buffers small fixed shares; one GC thread (serial: Botzone's bots
 * think on one core, and it is the smallest collector); no perf-data file in /tmp; the first OutOfMemoryError ends
 * the JVM (exit 3, "Terminating due to java.lang.OutOfMemoryError" on stderr), so a bot cannot catch it and limp on.
 */
export function javaMemoryFlags(memoryMb: number): string[] {
  const heap = memoryMb >= 128 ? memoryMb - 64 : Math.max(16, Math.floor(memoryMb / 2));
  return [
    `-Xmx${heap}m`,
    '-XX:MaxMetaspaceSize=48m',
    '-XX:CompressedClassSpaceSize=32m',
    '-XX:ReservedCodeCacheSize=32m',
    '-XX:MaxDirectMemorySize=16m',
    '-XX:+UseSerialGC',
    '-XX:-UsePerfData',
    '-XX:+ExitOnOutOfMemoryError',
    // The VM's own messages ("Terminating due to java.lang.OutOfMemoryError") to stderr: stdout is the protocol.
    '-XX:+DisplayVMOutputToStderr',
  ];
}

/**
 * UTF-8 on stdin/stdout/stderr and in source-less strings: the sandbox clears the environment (no locale), where the
 * JVM would fall back to ASCII and print a bot's Chinese debug line as '?'s. Botzone's sources are UTF-8 too.
 */
export const JAVA_UTF8_FLAGS = ['-Dfile.encoding=UTF-8', '-Dsun.stdout.encoding=UTF-8', '-Dsun.stderr.encoding=UTF-8'];

/** The words a JVM ended by its memory ceiling writes (ExitOnOutOfMemoryError's line, or an uncaught OOM). */
export const JAVA_OUT_OF_MEMORY = /java\.lang\.OutOfMemoryError/;

/** The class Botzone runs: `java Main`. */
export const JAVA_MAIN_CLASS = 'Main';

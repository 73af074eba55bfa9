/**
 * The sandboxed C++ compiler: g++ runs on a private staged copy of the sources behind the same layers as a player
 * (a cgroup with a memory ceiling and a process cap, the address-space rlimit, bubblewrap's namespaces with no
 * network and only /usr, /lib, /bin, the sources and the headers visible, or unshare's; dropped to the
 * unprivileged uid as root), with a wall-clock limit. Only seccomp is left out: a compiler must start cc1plus,
 * as and ld. Compiling is running the student's code in a weak sense (`#include "/dev/zero"`, a template bomb),
 * so it gets the player's walls, not the grader's.
 */
import { spawn } from 'node:child_process';
import { GraderError } from '../referee/grader-error.js';
import { PlayerCgroup } from './cgroup.js';
import { bwrapBaseArgs, detectLayers, dropPrivileges, type Layers } from './layers.js';
import { SHELL, unshareArgs } from './launch.js';
import { processTree, signalGroups, signalPids } from './process-tree.js';

export interface SandboxedBuild {
  /** The compiler and its arguments (paths inside `sourceDir`, `outDir` and `readOnly`, which keep their paths). */
  command: string[];
  /** The staged sources (read-only inside); the compiler's working folder. */
  sourceDir: string;
  /** Where the output goes: the one writable folder (world-writable, the compiler may run as nobody). */
  outDir: string;
  /** Further folders the compiler reads (the SDK and AIPlayer headers). */
  readOnly: string[];
  timeoutMs: number;
  memoryMb: number;
  layers?: Layers;
}

export interface BuildOutcome {
  result: 'ok' | 'failed' | 'timeout' | 'memory';
  /** What the compiler wrote on stderr (capped at 4 MB). */
  stderr: string;
  wallMs: number;
}

const STDERR_CAP = 4 * 1024 * 1024;
// Address space beyond the memory ceiling: cc1plus maps far more than it touches.
const ADDRESS_SPACE_HEADROOM_MB = 1024;
const PATH = '/usr/local/bin:/usr/bin:/bin';

function bwrapWords(bwrap: string, build: SandboxedBuild): string[] {
  const args = [bwrap, ...bwrapBaseArgs(), '--setenv', 'PATH', PATH, '--setenv', 'LANG', 'C.UTF-8'];
  args.push('--ro-bind', build.sourceDir, build.sourceDir);
  for (const dir of new Set(build.readOnly)) args.push('--ro-bind', dir, dir);
  args.push('--bind', build.outDir, build.outDir, '--chdir', build.sourceDir);
  return args;
}

/** Run the compiler in the sandbox; a sandbox that cannot start is a GraderError, never the student's failure. */
export async function runSandboxedBuild(build: SandboxedBuild): Promise<BuildOutcome> {
  const layers = build.layers ?? detectLayers();
  let cgroup: PlayerCgroup | null = null;
  try {
    cgroup = layers.cgroup ? new PlayerCgroup(layers.cgroup, build.memoryMb, 64) : null;
  } catch (error) {
    throw new GraderError(`the compiler's sandbox could not be prepared: ${(error as Error).message}`);
  }
  const sandboxed = layers.bwrap ? [...bwrapWords(layers.bwrap, build), ...build.command] : build.command;
  const target = [...(!layers.bwrap && layers.unshare ? unshareArgs(layers.unshare) : []), ...dropPrivileges(layers.identity), ...sandboxed];
  const addressSpaceKb = String((build.memoryMb + ADDRESS_SPACE_HEADROOM_MB) * 1024);
  const started = performance.now();
  const proc = spawn('/bin/sh', ['-c', SHELL, 'sh', ...(cgroup ? cgroup.joinFiles() : []), '--', addressSpaceKb, ...target], {
    cwd: build.sourceDir,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: { PATH, LANG: 'C.UTF-8' },
  });
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    if (stderr.length < STDERR_CAP) stderr += chunk;
  });
  let timedOut = false;
  const kill = (): void => {
    const pids = [...(cgroup?.pids() ?? []), ...processTree(proc.pid ?? 0)];
    signalGroups(proc.pid ? [proc.pid] : [], 'SIGKILL');
    signalPids(pids, 'SIGKILL');
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, build.timeoutMs);
  const { code, error } = await new Promise<{ code: number | null; error: Error | null }>((resolve) => {
    proc.once('error', (spawnError) => resolve({ code: null, error: spawnError }));
    proc.once('close', (exitCode) => resolve({ code: exitCode, error: null }));
  });
  clearTimeout(timer);
  kill(); // nothing the compiler started outlives it
  const oom = cgroup?.oomKilled() ?? false;
  await cgroup?.destroy();
  const wallMs = Math.round(performance.now() - started);
  if (error) throw new GraderError(`the compiler's sandbox could not start: ${error.message}`);
  if (timedOut) return { result: 'timeout', stderr, wallMs };
  if (oom || /virtual memory exhausted|out of memory allocating|Cannot allocate memory/i.test(stderr)) return { result: 'memory', stderr, wallMs };
  if (code === 0) return { result: 'ok', stderr, wallMs };
  // bubblewrap or setpriv failing says so before the compiler ran: the grader's problem.
  if (/^bwrap: |^setpriv: |^unshare: /m.test(stderr) && !/\{|error:/.test(stderr)) {
    throw new GraderError(`the compiler's sandbox did not start: ${stderr.trim().split('\n').pop()}`);
  }
  return { result: 'failed', stderr, wallMs };
}

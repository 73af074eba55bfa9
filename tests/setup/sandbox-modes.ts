/**
 * The sandbox modes a course meets, in one table. A test that runs a grader "in every mode" takes its rows from
 * here (by id) and builds the grader's command and environment with `graderCommand` / `modeEnv`, so a mode is
 * defined once: which user the grader runs as, which switches are set, and whether this machine can run it.
 *
 * The full matrix of attacks per mode lives in two files: tests/sandbox/hardening.test.ts (JavaScript, Python and
 * Botzone escapes; each mode, plus the control with the language layer off) and tests/sandbox/trust-modes.test.ts
 * (the compiler and the C++ player; each mode, plus the controls with seccomp and Landlock off). Other files take
 * the rows they need for a contract that must hold in every mode (same grade, same resource verdict), never a new
 * attack: a new attack belongs in one of those two matrices.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A non-root grader's uid (not 65534, which a root grader drops its players to). */
export const GRADER_UID = 4242;
export const isRoot = process.getuid?.() === 0;
export const hasBwrap = Boolean(spawnSync('bwrap', ['--version']).stdout?.length);

const NO_BWRAP = { REFEREE_SANDBOX_NO_BWRAP: '1' };
/** How Docker without user namespaces answers (bubblewrap installed, unable to start). */
const DOCKER_BWRAP = 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.';

export type ModeId = 'bwrap' | 'no-bwrap-root' | 'no-bwrap-user' | 'landlock-refused-user' | 'broken-bwrap' | 'no-compiler-user';

export interface SandboxMode {
  id: ModeId;
  /** What a reader of the test's output sees. */
  label: string;
  /** The grader's uid (0: root; GRADER_UID: a non-root grader, started through setpriv by a root test). */
  uid: number;
  /** The switches this mode sets (PATH tricks are filled in by modeEnv). */
  env: Record<string, string>;
  /** Every layer the mode has holds: the record says hardened. */
  hardened: boolean;
}

export const SANDBOX_MODES: Record<ModeId, SandboxMode> = {
  bwrap: { id: 'bwrap', label: 'bubblewrap', uid: 0, env: {}, hardened: true },
  'no-bwrap-root': { id: 'no-bwrap-root', label: 'no bubblewrap, root', uid: 0, env: NO_BWRAP, hardened: true },
  'no-bwrap-user': { id: 'no-bwrap-user', label: 'no bubblewrap, non-root', uid: GRADER_UID, env: NO_BWRAP, hardened: true },
  // Refused by the kernel (simulated): recorded as missing, never fatal, never called hardened.
  'landlock-refused-user': { id: 'landlock-refused-user', label: 'Landlock refused, non-root', uid: GRADER_UID, env: { ...NO_BWRAP, REFEREE_SANDBOX_NO_LANDLOCK: '1' }, hardened: false },
  // bubblewrap on PATH that fails to start (Docker): the fallback layers stand in, hardened by Landlock + seccomp.
  'broken-bwrap': { id: 'broken-bwrap', label: 'broken bubblewrap, root', uid: 0, env: {}, hardened: true },
  // No C compiler at run time: the launcher and guard come from a cache built ahead (`referee doctor --build`).
  'no-compiler-user': { id: 'no-compiler-user', label: 'no C compiler, non-root (tools built ahead)', uid: GRADER_UID, env: { ...NO_BWRAP, PATH: '/nonexistent' }, hardened: true },
};

/** The rows `ids` of the table, in that order. */
export function sandboxModes(...ids: ModeId[]): SandboxMode[] {
  return ids.map((id) => SANDBOX_MODES[id]);
}

/** Whether this machine can run the mode (every mode but plain bubblewrap needs root to switch users or stub PATH). */
export function canRun(mode: SandboxMode): boolean {
  if (!isRoot) return mode.id === 'bwrap' && hasBwrap;
  return mode.id !== 'bwrap' || hasBwrap;
}

let brokenStub: string | null = null;
/** A folder holding a `bwrap` that fails as Docker's does (made once per test file). */
export function brokenBwrapDir(): string {
  if (!brokenStub) {
    brokenStub = mkdtempSync(join(tmpdir(), 'referee-bwrap-broken-'));
    chmodSync(brokenStub, 0o755);
    writeFileSync(join(brokenStub, 'bwrap'), `#!/bin/sh\necho "${DOCKER_BWRAP}" >&2\nexit 1\n`, { mode: 0o755 });
  }
  return brokenStub;
}

/** The grader's environment in `mode` on top of `base` (the mode's switches win; PATH as the mode needs it). */
export function modeEnv(mode: SandboxMode, base: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  env.PATH ??= process.env.PATH ?? '/usr/bin:/bin';
  Object.assign(env, mode.env);
  if (mode.id === 'broken-bwrap') env.PATH = `${brokenBwrapDir()}:${env.PATH}`;
  return env;
}

/** The command that runs `node args…` as the grader of `mode` (setpriv to the grader's uid when it is not root). */
export function graderCommand(mode: SandboxMode, args: string[]): [string, ...string[]] {
  const node = [process.execPath, ...args];
  if (mode.uid === 0) return node as [string, ...string[]];
  return ['/usr/bin/setpriv', `--reuid=${mode.uid}`, `--regid=${mode.uid}`, '--clear-groups', ...node];
}

/** `dir` made usable by the grader of `mode`: mode 0755 and, for a non-root grader, owned by it. */
export function ownedBy(dir: string, uid: number): string {
  chmodSync(dir, 0o755);
  if (uid !== 0) chownSync(dir, uid, uid);
  return dir;
}

/**
 * The node binary a sandboxed child runs. Players run on the grader's own Node (process.execPath), but a grader
 * running as root drops its children to an unprivileged uid (layers.ts), and a Node installed in a private home
 * (nvm under /root, mode 0700: Docker images, Gradescope) is then out of the child's reach: every submission would
 * be a grader error. In that case the binary is staged like the rest of the shared runtime (staging.ts), a
 * world-readable copy made once per process; if even that fails, one line says where to put node instead.
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { GraderError } from '../referee/grader-error.js';
import type { Layers } from './layers.js';
import { stageShared } from './staging.js';

/** The first folder on `path`'s way that others (the sandbox's uid) cannot enter, or the file itself if they cannot run it; null when they can. */
export function privateStep(path: string): string | null {
  const steps: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    steps.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of steps) {
    if ((statSync(dir).mode & 0o001) === 0) return dir;
  }
  return (statSync(path).mode & 0o005) === 0o005 ? null : path;
}

let chosen: { key: string; path: string } | null = null;

/** The node a child of `layers` can run: process.execPath, or its staged copy when the child's uid cannot reach it. */
export function sandboxNode(layers: Pick<Layers, 'identity' | 'unshare'>, execPath = process.execPath): string {
  if (!layers.identity) return execPath;
  // Per node and per layer set: one process (a test, a doctor run) may start players with and without the fallback.
  const key = `${execPath}\0${layers.unshare ?? ''}`;
  if (chosen?.key === key) return chosen.path;
  const real = realpathSync(execPath);
  // The unshare fallback mounts a private tmpfs on /tmp and /dev/shm (launch.ts): a node there (an unpacked Node 22 in
  // a CI checkout under /tmp) is gone from the child's view, as a private one is out of its reach.
  const hidden = layers.unshare !== null && /^\/(tmp|dev\/shm)(\/|$)/.test(real) ? dirname(real) : null;
  const blocked = hidden ?? privateStep(real);
  let path = execPath;
  if (blocked) {
    try {
      path = stageShared(real);
    } catch (error) {
      throw new GraderError(
        hidden
          ? `node (${real}) is under ${hidden.startsWith('/tmp') ? '/tmp' : '/dev/shm'}, which the sandbox replaces with its own, and copying it failed (${(error as Error).message}): install node outside /tmp (e.g. /usr/local/bin)`
          : `node (${real}) cannot be run by the sandbox's user (uid ${layers.identity.uid}): ${blocked} is private, and copying it failed (${(error as Error).message}): install node where every user can read it (e.g. /usr/local/bin) or run \`chmod o+x ${blocked}\``,
      );
    }
  }
  chosen = { key, path };
  return path;
}

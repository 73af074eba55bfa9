/**
 * A grader that runs all semester (`serve`, the ladder) leaks nothing: each player's cgroups go with it, a grader
 * killed mid-game leaves no player running, and a grader's start removes the groups of graders that are gone —
 * never a live one's. Only groups named with the pids this file starts are counted: other test files (and other
 * graders on the machine) make and remove groups all the time. The long run over HTTP is `npm run soak:leaks`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { detectCgroups, type CgroupSupport } from '../../harness/sandbox/cgroup.js';
import { runToEnd, stopAfterwards } from '../setup/children.js';
import { canRun, graderCommand, modeEnv, sandboxModes } from '../setup/sandbox-modes.js';
import { startCli, stop } from '../web/serve-helpers.js';
import { playServeGame } from '../../scripts/serve-game.js';
import { SUBMISSIONS, isolateCache } from './support.js';

const CLI = resolve('dist/cli/index.js');
const PLAYER = join(SUBMISSIONS, 'random-ts');
const support: CgroupSupport | null = process.getuid?.() === 0 ? detectCgroups() : null;
const parents = support ? [...new Set([...Object.values(support.dirs), ...(support.freezer ? [support.freezer] : [])])] : [];
const withCgroups = support ? test : test.skip;

/** The groups named with `pid` as their owner, in every controller. */
function groupsOf(pid: number): string[] {
  return parents.flatMap((parent) => readdirSync(parent).filter((name) => name.startsWith(`referee-${pid}-`)).map((name) => join(parent, name)));
}

/** Whether `pid` is a process that has not exited (a zombie has). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((done) => child.once('exit', () => done()));
}

/** A next grader's start (a quick check): it sweeps at its first sandbox. */
async function nextGraderStart(env: NodeJS.ProcessEnv): Promise<void> {
  const run = await runToEnd(process.execPath, [CLI, 'check', PLAYER, '--no-type-check'], env);
  expect(run.stdout).toMatch(/PASS/);
}

/**
 * The groups named with `pid` after the next graders' starts: a sweep kills what is left and removes the group once
 * its tasks are gone (at load that may take the next start, or the one after).
 */
async function leftAfterNextStarts(pid: number, env: NodeJS.ProcessEnv): Promise<string[]> {
  for (let starts = 0; starts < 3 && groupsOf(pid).length > 0; starts++) await nextGraderStart(env);
  return groupsOf(pid);
}

withCgroups("a grader's start removes dead graders' groups (and kills what they left running), never a live grader's", async () => {
  const env = { ...process.env, REFEREE_CACHE_DIR: isolateCache() };
  const gone = stopAfterwards(spawn('true'));
  await exited(gone);
  // A player a grader killed with -9 left behind, stopped between turns (and frozen, where a freezer is).
  const orphan = stopAfterwards(spawn('sleep', ['600'], { stdio: 'ignore' }));
  // Another grader, alive: its groups are not ours to touch, even empty. One more group bears its pid but is older
  // than the process (the pid was reused after the grader that made it died): stale.
  const live = stopAfterwards(spawn('sleep', ['600'], { stdio: 'ignore' }));
  const dead = `referee-${gone.pid}-0000000dead0`;
  const kept = `referee-${live.pid}-00000000a11e`;
  const reused = `referee-${live.pid}-0000000b0a7d`;
  for (const parent of parents) for (const name of [dead, kept, reused]) mkdirSync(join(parent, name));
  for (const parent of parents) {
    writeFileSync(join(parent, dead, 'cgroup.procs'), String(orphan.pid));
    utimesSync(join(parent, reused), new Date(1000), new Date(1000));
  }
  orphan.kill('SIGSTOP');
  const freezer = parents.find((parent) => existsSync(join(parent, dead, 'freezer.state')));
  if (freezer) writeFileSync(join(freezer, dead, 'freezer.state'), 'FROZEN');
  try {
    await nextGraderStart(env);
    await exited(orphan);
    expect(orphan.signalCode).toBe('SIGKILL');
    expect(parents.filter((parent) => existsSync(join(parent, reused)))).toEqual([]);
    expect(parents.filter((parent) => existsSync(join(parent, kept)))).toEqual(parents);
  } finally {
    for (const parent of parents) for (const name of [dead, kept, reused]) if (existsSync(join(parent, name))) rmdirSync(join(parent, name));
  }
  // The empty group of the dead owner goes with it (its task was killed first; the removal may finish in the
  // background of the sweeping grader, or at the next start).
  expect(await leftAfterNextStarts(gone.pid as number, env)).toEqual([]);
});

describe.each(sandboxModes('bwrap', 'no-bwrap-root').filter(canRun).map((mode) => [mode.label, mode] as const))('%s', (_label, mode) => {
  withCgroups('games leave no cgroup behind; a grader killed with -9 mid-game leaves no player running and its groups go at the next start', async () => {
    const env = modeEnv(mode, { ...process.env, REFEREE_CACHE_DIR: isolateCache() });
    const [command, ...args] = graderCommand(mode, [CLI, 'play', '--black', PLAYER, '--white', PLAYER, '--games', '2']);
    const played = stopAfterwards(spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    played.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    played.stderr?.resume();
    await exited(played);
    expect(out).toMatch(/Score of/);
    // Removed as each player closes; at load a teardown slower than the grader's bound is left to the next start.
    expect(await leftAfterNextStarts(played.pid as number, env)).toEqual([]);

    // Killed at the first game's end: both players are alive (one stopped between turns).
    const killed = stopAfterwards(spawn(command, [...args.slice(0, -1), '50'], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    killed.stderr?.resume();
    await new Promise<void>((done) => {
      let seen = '';
      killed.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        seen += chunk;
        if (/game 1\/50/.test(seen)) done();
      });
      killed.once('exit', () => done());
    });
    const players = groupsOf(killed.pid as number).flatMap((dir) => readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number));
    expect(players.length).toBeGreaterThan(0);
    killed.kill('SIGKILL');
    await exited(killed);
    await nextGraderStart(env);
    expect(await leftAfterNextStarts(killed.pid as number, env)).toEqual([]);
    // A group is removed only once empty: every player process is gone (none survives, stopped, forever).
    expect([...new Set(players)].filter(running)).toEqual([]);
  });
});

/** One game on a `serve` page over its websocket: a person (first legal move) as Black against submission 0. */
const playOnServer = (url: string, onTurn?: () => void): Promise<string> => playServeGame(new URL('/ws', url).href.replace(/^http/, 'ws'), { kind: 'submission', index: 0 }, onTurn);

/** Poll a state until `probe` holds (the bound only turns a hang into a message). */
async function until(what: string, probe: () => boolean): Promise<void> {
  for (let tries = 0; !probe(); tries++) {
    if (tries > 600) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

withCgroups('`referee serve` after games over its websocket: its groups, fds and children do not grow (the long run: npm run soak:leaks)', async () => {
  process.env.REFEREE_CACHE_DIR = isolateCache();
  const server = await startCli(['serve', '--port', '0', PLAYER]);
  try {
    const pid = server.child.pid as number;
    const fds = (): number => readdirSync(`/proc/${pid}/fd`).length;
    const children = (): number => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).length;
    let inPlay = 0;
    await playOnServer(server.url, () => (inPlay = Math.max(inPlay, groupsOf(pid).length)));
    // The submission plays in the server's own sandbox (groups named with its pid) …
    expect(inPlay).toBeGreaterThan(0);
    // … and a finished game's player is closed with its session: its groups go.
    await until('the first game\'s groups to go', () => groupsOf(pid).length === 0);
    const before = { fds: fds(), children: children() };
    for (let game = 0; game < 3; game++) await playOnServer(server.url);
    await until('the games\' groups to go', () => groupsOf(pid).length === 0);
    await until('the fds and children to settle', () => fds() <= before.fds && children() <= before.children);
  } finally {
    await stop(server);
  }
});

/**
 * Staging bases left by a grader that could not clean up (SIGKILL): the next grader's first staging removes them,
 * and never a live grader's. Through the real CLI (dist/cli/index.js as subprocesses) and, for the cases a live
 * run cannot stage on demand (a reused pid, a base changed a moment ago), sweepStaleBases on a scratch folder.
 * Kept runtime copies: one copy per content, reused by the next grader, made again when the content changes, and
 * never taken from a folder someone else could have written.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KEPT_UNUSED_MS, keptCopyIn, pruneKept, STALE_AFTER_MS, sweepStaleBases, trustedRuntimeDir } from '../../harness/sandbox/staging.js';
import { tempDir, writeConfig } from '../batch/helpers.js';
import { runToEnd } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');
const work = tempDir('staging');
const cache = join(work, 'cache');
/** Where the CLI stages: /run for root when writable, else the OS temp folder (as staging.ts decides). */
const ROOTS = ['/run', tmpdir()];
const SLOW = join(work, 'slow', 'AIPlayer.py');
mkdirSync(join(work, 'slow'), { recursive: true });
// Slow enough that a game lasts seconds: the grader is killed with games still to play.
writeFileSync(
  SLOW,
  'import time\nclass AIPlayer:\n    def __init__(self, color):\n        self.color = color\n    def get_move(self, board):\n' +
    '        time.sleep(0.15)\n        return list(board.get_legal_actions(self.color))[0]\n',
);
const config = writeConfig(work, {
  title: 'slow',
  moveTimeoutMs: 2000,
  constructTimeoutMs: 3000,
  interfaceCheck: { points: 10 },
  opponents: [{ name: 'random', games: 4, points: 20, seed: 7, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } }],
});

/** The staging bases of one process. */
const basesOf = (pid: number): string[] =>
  ROOTS.flatMap((root) => (existsSync(root) ? readdirSync(root).filter((name) => name.startsWith(`referee-${pid}-`)).map((name) => join(root, name)) : []));

/** Make a base look untouched for two minutes (what a real wait of a minute would give). */
const age = (dir: string): void => {
  const then = new Date(Date.now() - 2 * STALE_AFTER_MS);
  utimesSync(dir, then, then);
};

interface Grader {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<void>;
}

function startGrader(name: string): Grader {
  const child = spawn(process.execPath, [CLI, 'grade', SLOW, '--config', config, '--out', join(work, name)], {
    env: { ...process.env, REFEREE_CACHE_DIR: cache },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return { child, stderr: () => stderr, exited };
}

async function until(what: string, test: () => boolean, grader: Grader): Promise<void> {
  for (let waited = 0; !test(); waited += 50) {
    if (waited > 60_000 || grader.child.exitCode !== null) throw new Error(`gave up waiting for ${what}; the grader said: ${grader.stderr()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** A pid no process has now (one that just ended). */
function deadPid(): number {
  const run = spawnSync('sh', ['-c', 'echo $$']);
  return Number(run.stdout.toString().trim());
}

const started: Grader[] = [];
afterAll(async () => {
  for (const grader of started) {
    if (grader.child.exitCode === null && grader.child.signalCode === null) grader.child.kill('SIGKILL');
    await grader.exited;
    for (const dir of basesOf(grader.child.pid!)) rmSync(dir, { recursive: true, force: true });
  }
});

test("a grader SIGKILLed mid-grade leaves its base; the next run removes it, and never a live grader's", async () => {
  const killed = startGrader('killed');
  started.push(killed);
  // After its first game: the check is done and the other games are being played.
  await until('the first game', () => /game 1 .*: (win|draw|loss)/.test(killed.stderr()), killed);
  const [leftover] = basesOf(killed.child.pid!);
  expect(leftover).toBeDefined();
  expect(readdirSync(leftover).some((name) => name !== 'shared' && name !== 'owner.json')).toBe(true); // a staged player
  killed.child.kill('SIGKILL');
  await killed.exited;
  expect(existsSync(leftover)).toBe(true); // no exit handler ran
  age(leftover);

  const live = startGrader('live');
  started.push(live);
  await until("the live grader's base", () => basesOf(live.child.pid!).some((dir) => existsSync(join(dir, 'owner.json'))), live);
  const [liveBase] = basesOf(live.child.pid!);
  age(liveBase); // only its being alive may protect it
  const root = join(liveBase, '..');
  // A base named after the live grader's pid, but made by an earlier process with that pid: that one is dead.
  const reused = join(root, `referee-${live.child.pid}-0badc0de`);
  mkdirSync(reused);
  const owner = JSON.parse(readFileSync(join(liveBase, 'owner.json'), 'utf8')) as { start: string };
  writeFileSync(join(reused, 'owner.json'), JSON.stringify({ ...owner, start: String(Number(owner.start) - 1) }));
  age(reused);

  const next = await runToEnd(process.execPath, [CLI, 'check', SLOW], { ...process.env, REFEREE_CACHE_DIR: cache });
  expect({ code: next.code, stderr: next.stderr }).toMatchObject({ code: 0 });
  expect(existsSync(leftover)).toBe(false);
  expect(existsSync(reused)).toBe(false);
  expect(existsSync(liveBase)).toBe(true);
  expect(existsSync(join(liveBase, 'owner.json'))).toBe(true);
  expect(live.child.exitCode).toBeNull(); // still grading
}, 180_000);

describe('sweepStaleBases', () => {
  const root = tempDir('sweep');
  const make = (name: string, owner?: object, aged = true): string => {
    const dir = join(root, name);
    mkdirSync(join(dir, 'shared'), { recursive: true });
    if (owner) writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
    if (aged) age(dir);
    return dir;
  };
  /** This process as staging.ts records an owner. */
  const me = (): { pid: number; start: string; boot: string; pidns: string } => {
    const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    return {
      pid: process.pid,
      start: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19],
      boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pidns: readlinkSync('/proc/self/ns/pid'),
    };
  };

  test('removes only old bases whose owner is gone; keeps live, recent, foreign-namespace and unrelated folders', () => {
    if (!existsSync('/proc/self/stat')) return; // start times come from /proc (Linux)
    const self = me();
    const dead = deadPid();
    const gone = make(`referee-${dead}-11111111`, { ...self, pid: dead });
    const legacy = make(`referee-${dead}-22222222`); // an older grader's base, without owner.json
    const reused = make(`referee-${process.pid}-33333333`, { ...self, start: '1' }); // the pid now names another process
    const rebooted = make(`referee-${process.pid}-44444444`, { ...self, boot: 'another-boot' });
    const alive = make(`referee-${process.pid}-55555555`, self);
    const aliveLegacy = make(`referee-${process.pid}-66666666`);
    const recent = make(`referee-${dead}-77777777`, { ...self, pid: dead }, false);
    const foreign = make(`referee-${dead}-88888888`, { ...self, pid: dead, pidns: 'pid:[1]' });
    const unrelated = make(`referee-${dead}-notours`);
    const removed = sweepStaleBases(root);
    expect(removed.sort()).toEqual([gone, legacy, reused, rebooted].sort());
    for (const dir of [alive, aliveLegacy, recent, foreign, unrelated]) expect(existsSync(dir)).toBe(true);
  });
});

describe('kept runtime copies', () => {
  const root = tempDir('kept');
  const source = join(root, 'python-abc');
  mkdirSync(join(source, '__pycache__'), { recursive: true });
  writeFileSync(join(source, 'host.py'), 'print(1)\n');
  chmodSync(join(source, 'host.py'), 0o666); // a source others may write: its copy must not be
  writeFileSync(join(source, '__pycache__', 'host.pyc'), 'x');

  test('one copy per content, reused as it is; new content is a new copy; the copy is read-only to others', () => {
    const dir = join(root, 'runtime');
    expect(trustedRuntimeDir(dir)).toBe(true);
    const first = keptCopyIn(dir, source)!;
    expect(readFileSync(join(first, 'host.py'), 'utf8')).toBe('print(1)\n');
    expect(statSync(join(first, 'host.py')).mode & 0o777).toBe(0o644);
    expect(statSync(join(first, '__pycache__')).mode & 0o777).toBe(0o755);
    const inode = statSync(join(first, 'host.py')).ino;
    expect(keptCopyIn(dir, source)).toBe(first);
    expect(statSync(join(first, 'host.py')).ino).toBe(inode); // reused, not copied again
    writeFileSync(join(source, '__pycache__', 'host.pyc'), 'y'); // same names, sizes: only the content differs
    const second = keptCopyIn(dir, source)!;
    expect(second).not.toBe(first);
    expect(readFileSync(join(second, '__pycache__', 'host.pyc'), 'utf8')).toBe('y');
    // Hash-checked .pyc files with the same header (magic, flags, source hash) are one compile: another marshal of it is no new copy.
    const header = Buffer.alloc(16);
    header.writeUInt32LE(3, 4);
    writeFileSync(join(source, '__pycache__', 'host.pyc'), Buffer.concat([header, Buffer.from('marshal 1')]));
    const compiled = keptCopyIn(dir, source)!;
    writeFileSync(join(source, '__pycache__', 'host.pyc'), Buffer.concat([header, Buffer.from('marshal 2')]));
    expect(keptCopyIn(dir, source)).toBe(compiled);
    header.writeUInt32LE(4, 8); // another source hash
    writeFileSync(join(source, '__pycache__', 'host.pyc'), Buffer.concat([header, Buffer.from('marshal 2')]));
    expect(keptCopyIn(dir, source)).not.toBe(compiled);
    // A half-made copy of a dead grader goes after an hour; a copy unused for KEPT_UNUSED_MS goes; the rest stays.
    expect(first.endsWith('/python-abc')).toBe(true); // the name stays: stacks and tracebacks end as before
    const partial = join(dir, '.partial-1-000000000000');
    mkdirSync(partial);
    const old = new Date(Date.now() - KEPT_UNUSED_MS - 60_000);
    utimesSync(partial, old, old);
    utimesSync(join(first, '..'), old, old);
    pruneKept(dir);
    expect([existsSync(partial), existsSync(first), existsSync(second)]).toEqual([false, false, true]);
  });

  test('a runtime folder another user owns, others may write, or a link is not used', () => {
    const foreign = join(root, 'foreign');
    mkdirSync(foreign, { mode: 0o711 });
    chownSync(foreign, 65534, 65534);
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const link = join(root, 'link');
    mkdirSync(join(root, 'target'), { mode: 0o711 });
    symlinkSync(join(root, 'target'), link);
    if (process.getuid?.() === 0) expect(trustedRuntimeDir(foreign)).toBe(false);
    expect(trustedRuntimeDir(open)).toBe(false);
    expect(trustedRuntimeDir(link)).toBe(false);
  });

  test('two checks in a row stage the Python host once: the second finds the first one\'s copy', async () => {
    // To its own end however loaded the machine (a failed or timed-out test stops it).
    const check = () => runToEnd(process.execPath, [CLI, 'check', SLOW], { ...process.env, REFEREE_CACHE_DIR: cache });
    expect((await check()).code).toBe(0);
    // Copies of this cache's Python host folder (content-named: graders of another harness make others).
    const host = readdirSync(cache).find((name) => /^python-[0-9a-f]+$/.test(name))!;
    const runtime = ROOTS.map((dir) => join(dir, `referee-runtime-${process.getuid?.()}`)).filter(existsSync);
    const copies = (): Array<[string, number]> =>
      runtime.flatMap((dir) => readdirSync(dir).filter((id) => existsSync(join(dir, id, host))).map((id) => [join(dir, id, host), statSync(join(dir, id, host, 'host.py')).ino] as [string, number]));
    const before = copies();
    expect(before.length).toBeGreaterThan(0);
    expect((await check()).code).toBe(0);
    expect(copies()).toEqual(before);
  });
});

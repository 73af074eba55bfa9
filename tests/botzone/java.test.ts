/**
 * Java Botzone bots, unchanged, through the CLI as a subprocess with the real javac and JVM (#34): check in Botzone's
 * terms (a kept-running simple-interaction bot passes; a typo is located, with Botzone's compile line as the hint),
 * grade under "platform": "botzone" (Java's multiplier 3), a tournament beside a C++ Botzone bot, a bot past its
 * limit ruled `timeout` at Java's 3 s, one whose heap runs out ruled `memory`, and a hostile bot (a classmate's file,
 * a TCP connection, a process) contained in every sandbox mode, with the control that shows each attack works when
 * the layers are off. Skipped, with the reason, on a machine without a JDK (`apt-get install default-jdk-headless`).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { GameRecord } from '../../harness/referee/record.js';
import { runToEnd } from '../setup/children.js';
import { canRun, graderCommand, modeEnv, ownedBy, SANDBOX_MODES, sandboxModes, type SandboxMode } from '../setup/sandbox-modes.js';
import { seedCache } from '../setup/suite-cache.js';
import { scratch } from '../sandbox/support.js';
import { savedRecords } from './records.js';

const BOTS = resolve('tests/fixtures/botzone');
const CLI = resolve('dist/cli/index.js');
const hasJdk = spawnSync('javac', ['-version']).status === 0;
const maybe = hasJdk ? describe : describe.skip;
if (!hasJdk) console.warn('java.test: no JDK (javac) on this machine: apt-get install default-jdk-headless to run these tests');

let work: string;
const cleanup: string[] = [];

async function referee(args: string[], mode: SandboxMode = SANDBOX_MODES.bwrap, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, ...rest] = graderCommand(mode, [CLI, ...args]);
  const run = await runToEnd(command, rest, modeEnv(mode, { ...process.env, FORCE_COLOR: '0', ...env }));
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  work = scratch('botzone-java');
});

afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

maybe('Java bots play every command', () => {
  test('check in Botzone terms (kept bot passes; a typo is located), grade with the preset, a tournament beside a C++ Botzone bot', async () => {
    const kept = await referee(['check', join(BOTS, 'reversi-java-keep'), '--json']);
    if (!kept.stdout.trimStart().startsWith('{')) expect({ code: kept.code, stderr: kept.stderr }).toEqual({ code: 0, stderr: '' });
    const result = JSON.parse(kept.stdout) as { ok: boolean; limits: { moveTimeoutMs: number; memoryMb: number; source: string }; steps: { id: string; status: string; detail?: string }[] };
    expect(result.steps.filter((step) => step.status === 'fail')).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.limits.source).toMatch(/Java 3/);
    expect(result.limits.memoryMb).toBe(256);
    expect(result.limits.moveTimeoutMs).toBe(3000);
    expect(result.steps.find((step) => step.id === 'export')!.detail).toMatch(/simple interaction, kept running/);
    // Its debug line is UTF-8 (the sandbox has no locale: the JVM is told so), as Botzone shows it.
    expect(result.steps.find((step) => step.id === 'moves')!.detail).toMatch(/\(debug: 第 1 回合 in \d+ ms\)/);

    // A single file named otherwise is compiled as Botzone compiles it (saved as Main.java); the error is located
    // in the student's own file, with Botzone's compile line as the fix.
    const broken = await referee(['check', join(BOTS, 'java-hostile', 'Broken.java')]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/✗ compiles: 1 error\n\s+Broken\.java:7:36: ';' expected/);
    expect(broken.stdout).toMatch(/fix: Botzone compiles the one file as Main\.java \(javac -encoding utf-8\) and runs java Main/);

    // The restarted JSON bot (hand-parsed input, System.currentTimeMillis budget) graded under Botzone's judge.
    const config = join(work, 'botzone.json');
    writeFileSync(config, JSON.stringify({ title: 'Reversi on Botzone', game: 'reversi', platform: 'botzone', opponents: [{ name: 'random', games: 2, points: 100 }] }));
    const out = join(work, 'grade');
    const graded = await referee(['grade', join(BOTS, 'reversi-java'), '--config', config, '--out', out]);
    expect({ code: graded.code, stderr: graded.code === 0 ? '' : graded.stderr }).toEqual({ code: 0, stderr: '' });
    const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { status: string; isolation: { hardened: boolean }; assignment: { config: { referee: { timeMultipliers: Record<string, number> } } } };
    expect(grade.status).toBe('graded');
    expect(grade.isolation.hardened).toBe(true);
    expect(grade.assignment.config.referee.timeMultipliers).toMatchObject({ Java: 3 });

    const tournament = join(work, 'tournament');
    mkdirSync(tournament);
    const ran = await referee(['tournament', join(BOTS, 'reversi-java-keep'), join(BOTS, 'reversi-jsoncpp'), '--config', config, '--games-per-pair', '2', '--out', tournament]);
    expect({ code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr }).toEqual({ code: 0, stderr: '' });
    const ranking = readFileSync(join(tournament, 'ranking.csv'), 'utf8');
    for (const name of ['reversi-java-keep', 'reversi-jsoncpp']) expect(ranking).toContain(name);
    expect(readFileSync(join(tournament, 'tournament.json'), 'utf8')).not.toMatch(/"verdict":"(protocol|crash|timeout|memory)"/);
  }, 400_000);

  test('past its limit a Java bot is ruled timeout at 3 s (Java x3); a heap that runs out is ruled memory', async () => {
    const slow = join(work, 'slow');
    const played = await referee(['play', '--black', join(BOTS, 'java-hostile', 'Slow.java'), '--white', 'random', '--games', '1', '--platform', 'botzone', '--save', slow]);
    expect(played.code).toBe(0);
    const [late] = savedRecords(slow);
    // Its first turn (the JVM's start counted, the limit doubled) was answered; its endless second turn was not.
    expect(late.turns[0]).toMatchObject({ side: 0, kind: 'move', limitMs: 6000 });
    expect(late.end.loser).toMatchObject({ side: 0, verdict: 'timeout' });
    expect(late.end.loser!.message).toMatch(/within 3000 ms/);

    const memory = join(work, 'memory');
    const again = await referee(['play', '--black', join(BOTS, 'java-hostile', 'Memory.java'), '--white', 'random', '--games', '1', '--platform', 'botzone', '--save', memory]);
    expect(again.code).toBe(0);
    const [blown] = savedRecords(memory);
    // It catches OutOfMemoryError to answer anyway; the JVM ends at the first one, as Botzone ends a bot at its limit.
    expect(blown.end.loser).toMatchObject({ side: 0, verdict: 'memory' });
    expect(blown.end.loser!.message).toMatch(/256 MB memory limit/);

    // A grader without a JDK: a grader error (never the student's loss) in one line naming the fix.
    const missing = await referee(['play', '--black', join(BOTS, 'reversi-java-keep'), '--white', 'random'], SANDBOX_MODES.bwrap, { PATH: '/nonexistent' });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/grader error.*Java bots need a JDK.*apt-get install default-jdk-headless/);
  });
});

/**
 * The hostile bot in every mode a course meets, plus the control (Landlock and seccomp off as a non-root grader):
 * each attack's result is in the bot's first debug line. One cache per grader user and trust level (content-addressed:
 * a mode's runs share the compiled bot).
 */
maybe('a hostile Java bot', () => {
  let tcp: Server;
  let port = 0;
  let connections = 0;
  const caches = new Map<string, string>();

  beforeAll(async () => {
    tcp = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done));
    port = (tcp.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((done) => tcp.close(done));
  });

  function cacheFor(mode: SandboxMode, trusted: boolean): string {
    const key = `${mode.uid}-${trusted}`;
    if (!caches.has(key)) {
      const dir = ownedBy(mkdtempSync(join(tmpdir(), `referee-java-cache-${mode.uid}-`)), mode.uid);
      cleanup.push(dir);
      caches.set(key, mode.uid === 0 ? seedCache(dir) : dir);
    }
    return caches.get(key)!;
  }

  async function attack(mode: SandboxMode, env: Record<string, string> = {}): Promise<{ seen: Record<string, string>; record: GameRecord }> {
    const dir = ownedBy(mkdtempSync(join(tmpdir(), `referee-java-${mode.id}-`)), mode.uid);
    cleanup.push(dir);
    const neighbour = join(dir, 'classmate-grades.csv');
    writeFileSync(neighbour, 'alice,100\n', { mode: 0o644 });
    const bot = join(dir, 'bot');
    mkdirSync(bot, { mode: 0o755 });
    const template = readFileSync(join(BOTS, 'java-hostile', 'Hostile.java.template'), 'utf8');
    writeFileSync(join(bot, 'Main.java'), template.split('__NEIGHBOUR__').join(neighbour).split('__PORT__').join(String(port)), { mode: 0o644 });
    const out = join(dir, 'out');
    if (mode.uid !== 0) for (const path of [neighbour, bot, join(bot, 'Main.java')]) chownSync(path, mode.uid, mode.uid);
    const cache = cacheFor(mode, mode.hardened && Object.keys(env).length === 0);
    const played = await referee(['play', '--black', bot, '--white', 'random', '--games', '1', '--platform', 'botzone', '--save', out], mode, { HOME: dir, REFEREE_CACHE_DIR: cache, ...env });
    expect({ code: played.code, stderr: played.code === 0 ? '' : played.stderr }).toEqual({ code: 0, stderr: '' });
    const [record] = savedRecords(out);
    const first = record.turns.find((turn) => turn.side === 0 && turn.kind === 'move');
    const seen = Object.fromEntries((first?.debug ?? '').split(';').map((part) => part.split('=') as [string, string]));
    return { seen, record };
  }

  test.each(sandboxModes('bwrap', 'no-bwrap-root', 'no-bwrap-user', 'landlock-refused-user'))('$label: a classmate\'s file, a TCP connection and a process are refused; the game goes on', async (mode) => {
    if (!canRun(mode)) return;
    const { seen, record } = await attack(mode);
    expect(record.end.loser?.side).not.toBe(0);
    expect(seen.tcp).toBe('blocked');
    expect(seen.process).toBe('blocked');
    // Landlock refused (simulated): the mode is not hardened and the file is readable; the record says so.
    expect(seen.read).toBe(mode.hardened ? 'blocked' : 'ALLOWED alice,100');
    expect(connections).toBe(0);
  });

  test('control: with Landlock and seccomp off (non-root, no bubblewrap) every attack gets through', async () => {
    const mode = SANDBOX_MODES['no-bwrap-user'];
    if (!canRun(mode)) return;
    const { seen } = await attack(mode, { REFEREE_SANDBOX_NO_LANDLOCK: '1', REFEREE_SANDBOX_NO_SECCOMP: '1' });
    expect(seen).toEqual({ read: 'ALLOWED alice,100', tcp: 'ALLOWED', process: 'ALLOWED exit 0' });
    expect(connections).toBe(1);
    connections = 0;
  });
});

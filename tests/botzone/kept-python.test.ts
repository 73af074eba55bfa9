/**
 * A student's kept-running Python Botzone bot (tests/fixtures/botzone/reversi-python-keep: json from stdin, a numpy
 * board kept between turns, a time.time() search budget, the keep-running marker, a loop on stdin) through the CLI as
 * a subprocess (#34), ruled as the C++ kept bot is (tests/botzone/kept): one process answers every turn of a game;
 * a variant that never answers its second turn loses on time at that turn's limit (Python's: Botzone's ×6); a variant
 * that takes 600 MB there loses for memory. Then the endless variant in every sandbox mode, and with no C compiler
 * and nothing built, where no spawner keeps the bot's time and the grader does.
 */
import { chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { GameRecord } from '../../harness/referee/record.js';
import { runToEnd } from '../setup/children.js';
import { canRun, graderCommand, hasBwrap, isRoot, modeEnv, ownedBy, sandboxModes, type SandboxMode } from '../setup/sandbox-modes.js';
import { seedCache } from '../setup/suite-cache.js';

const CLI = resolve('dist/cli/index.js');
const KEEP = resolve('tests/fixtures/botzone/reversi-python-keep');
const dirs: string[] = [];
let work: string;

/** The fixture with its BEHAVIOUR switched, in a folder of its own (readable by any grader user). */
function variant(parent: string, behaviour: 'loop' | 'memory', uid = 0): string {
  const dir = join(parent, behaviour);
  mkdirSync(dir, { mode: 0o755 });
  writeFileSync(join(dir, 'main.py'), readFileSync(join(KEEP, 'main.py'), 'utf8').replace(/^BEHAVIOUR = ""$/m, `BEHAVIOUR = "${behaviour}"`), { mode: 0o644 });
  if (uid !== 0) {
    chownSync(dir, uid, uid);
    chownSync(join(dir, 'main.py'), uid, uid);
  }
  return dir;
}

async function referee(args: string[], env: Record<string, string | undefined> = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runToEnd(process.execPath, [CLI, ...args], { ...env, FORCE_COLOR: '0' });
}

/** The bot's own turns (it writes "pid P turn T asked A took S s" as its debug). */
function botTurns(record: GameRecord, side: number): { pid: number; asked: number }[] {
  return record.turns
    .filter((turn) => turn.side === side && turn.kind === 'move' && typeof turn.debug === 'string')
    .map((turn) => {
      const [, pid, asked] = /^pid (\d+) turn \d+ asked (\d+) took/.exec(turn.debug!) ?? [];
      return { pid: Number(pid), asked: Number(asked) };
    });
}

/** Each game's bot turns come from one process, asked 1, 2, 3… (kept running, never restarted). */
function expectKept(record: GameRecord, side: number): void {
  const turns = botTurns(record, side);
  expect(turns.length).toBeGreaterThan(0);
  expect(new Set(turns.map((turn) => turn.pid)).size).toBe(1);
  expect(turns.map((turn) => turn.asked)).toEqual(turns.map((_, i) => i + 1));
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'referee-bz-keep-py-'));
  dirs.push(work);
  ownedBy(work, 0);
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('check passes in Botzone terms (JSON, kept running); grade under the preset plays every turn of a game from one process', async () => {
  const checked = await referee(['check', KEEP, '--json']);
  const result = JSON.parse(checked.stdout) as { ok: boolean; steps: { id: string; status: string; detail?: string }[]; limits: { moveTimeoutMs: number } };
  expect(result.steps.filter((step) => step.status === 'fail')).toEqual([]);
  expect(result.ok).toBe(true);
  expect(result.steps.find((step) => step.id === 'export')!.detail).toMatch(/JSON interaction, kept running/);

  const config = join(work, 'grade.json');
  writeFileSync(config, JSON.stringify({ title: 'Reversi on Botzone', game: 'reversi', platform: 'botzone', opponents: [{ name: 'random', games: 2, points: 100 }] }));
  const out = join(work, 'grade');
  const graded = await referee(['grade', KEEP, '--config', config, '--out', out]);
  expect({ code: graded.code, stderr: graded.code === 0 ? '' : graded.stderr }).toEqual({ code: 0, stderr: '' });
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { status: string; games: { studentSide: number; record: GameRecord }[] };
  expect(grade.status).toBe('graded');
  expect(grade.games).toHaveLength(2);
  for (const { studentSide: side, record } of grade.games) {
    // Lost by score at most: never a ruling against it.
    expect(record.end.loser?.side === side ? record.end.loser.verdict : 'none').toMatch(/^(none|score)$/);
    expectKept(record, side);
    // Python's limit under the preset: Botzone's 1 s ×6, the bot's first turn ×2.
    const own = record.turns.filter((turn) => turn.side === side && turn.kind === 'move');
    expect(own[0].limitMs).toBe(12_000);
    expect(own[1].limitMs).toBe(6000);
  }
});

test('a tournament rules the endless variant at its second turn limit (Python ×6) and the good bot kept; 600 MB is a memory loss', async () => {
  const bots = mkdtempSync(join(work, 'bots-'));
  const loop = variant(bots, 'loop');
  const memory = variant(bots, 'memory');
  const config = join(work, 'tournament.json');
  // 300 ms a move: Python's 1800 ms (first turn 3600).
  writeFileSync(config, JSON.stringify({ title: 'Reversi on Botzone', game: 'reversi', platform: 'botzone', moveTimeoutMs: 300, opponents: [{ name: 'random', games: 2, points: 100 }] }));
  const out = join(work, 'tournament');
  const ran = await referee(['tournament', KEEP, loop, '--config', config, '--games-per-pair', '2', '--out', out, '--jobs', '2']);
  expect({ code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr }).toEqual({ code: 0, stderr: '' });
  const summary = JSON.parse(readFileSync(join(out, 'tournament.json'), 'utf8')) as { games: { players: string[]; record: GameRecord }[] };
  expect(summary.games).toHaveLength(2);
  for (const { players, record } of summary.games) {
    const looping = players.indexOf('loop');
    const loser = record.end.loser!;
    // Its first asked turn answered by the kept process, its second stopped at the limit by the spawner.
    expect({ side: loser.side, verdict: loser.verdict, phase: loser.phase, message: loser.message }).toEqual({ side: looping, verdict: 'timeout', phase: 'move', message: 'no answer within 1800 ms' });
    expect(loser.wallMs).toBeGreaterThanOrEqual(1800);
    expect(botTurns(record, looping).map((turn) => turn.asked)).toEqual([1]);
    expectKept(record, 1 - looping);
  }

  // The memory case gets 10 s a move (60 s for Python): at load a bot given a few % of a CPU may not touch 256 MB
  // within a short limit, and its loss would then (rightly) be a timeout; this case is about the memory verdict.
  const saved = join(work, 'memory');
  const played = await referee(['play', '--black', memory, '--white', 'random', '--games', '1', '--platform', 'botzone', '--move-timeout', '10000', '--save', saved]);
  expect(played.code).toBe(0);
  const [file] = readdirSync(saved).filter((name) => name.endsWith('.json'));
  const record = JSON.parse(readFileSync(join(saved, file), 'utf8')) as GameRecord;
  const loser = record.end.loser as { side: number; verdict: string; message: string };
  expect({ side: loser.side, verdict: loser.verdict, message: loser.message }).toEqual({ side: 0, verdict: 'memory', message: expect.stringMatching(/256 MB/) });
  expect(botTurns(record, 0).map((turn) => turn.asked)).toEqual([1]);
}, 300_000);

/**
 * The endless variant in each mode a course meets, and with no C compiler and nothing built (bubblewrap and python3
 * only on PATH, an empty cache: no spawner, the grader keeps the bot's time). Its first turn is answered by the
 * kept process, its second is ruled at its limit.
 */
const NO_SPAWNER = { id: 'no-compiler-nothing-built', label: 'no C compiler, nothing built (no spawner)', uid: 0, env: { REFEREE_CXX: '/nonexistent/g++', REFEREE_NO_PREBUILT: '1' }, hardened: true } as const;
const MODES: (SandboxMode | typeof NO_SPAWNER)[] = [...sandboxModes('bwrap', 'no-bwrap-root', 'no-bwrap-user', 'landlock-refused-user'), NO_SPAWNER];

describe.each(MODES.map((mode) => [mode.label, mode] as const))('the endless kept bot: %s', (_label, mode) => {
  const runnable = mode.id === NO_SPAWNER.id ? isRoot && hasBwrap : canRun(mode as SandboxMode);
  (runnable ? test : test.skip)('its first turn answered by the kept process, its second ruled at its limit', async () => {
    const uid = mode.uid;
    const home = ownedBy(mkdtempSync(join(tmpdir(), `referee-bz-keep-${mode.id}-`)), uid);
    dirs.push(home);
    const loop = variant(home, 'loop', uid);
    const saved = join(home, 'games');
    let env: Record<string, string>;
    if (mode.id === NO_SPAWNER.id) {
      // bubblewrap and python3 only: no C compiler of any name, and a cache with nothing built in it.
      const bin = join(home, 'bin');
      mkdirSync(bin);
      for (const tool of ['bwrap', 'python3']) {
        const found = (await runToEnd('sh', ['-c', `command -v ${tool}`])).stdout.trim();
        symlinkSync(found, join(bin, tool));
      }
      env = { HOME: home, PATH: bin, REFEREE_CXX: '/nonexistent/g++', REFEREE_NO_PREBUILT: '1', REFEREE_CACHE_DIR: join(home, 'empty-cache') };
    } else {
      const cache = ownedBy(mkdtempSync(join(tmpdir(), `referee-bz-keep-cache-${mode.id}-`)), uid);
      dirs.push(cache);
      env = modeEnv(mode as SandboxMode, { HOME: home, REFEREE_CACHE_DIR: uid === 0 ? seedCache(cache) : cache });
    }
    const command = graderCommand(mode as SandboxMode, [CLI, 'play', '--black', loop, '--white', 'random', '--games', '1', '--platform', 'botzone', '--move-timeout', '300', '--save', saved]);
    const run = await runToEnd(command[0], command.slice(1), env);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-2000) }).toEqual({ code: 0, stderr: '' });
    const [file] = readdirSync(saved).filter((name) => name.endsWith('.json'));
    const record = JSON.parse(readFileSync(join(saved, file), 'utf8')) as GameRecord;
    const loser = record.end.loser!;
    expect({ side: loser.side, verdict: loser.verdict, phase: loser.phase, message: loser.message }).toEqual({ side: 0, verdict: 'timeout', phase: 'move', message: 'no answer within 1800 ms' });
    expect(loser.wallMs).toBeGreaterThanOrEqual(1800);
    expect(botTurns(record, 0).map((turn) => turn.asked)).toEqual([1]);
    // With no compiler nothing native was built: no spawner, the grader kept the bot's time.
    if (mode.id === NO_SPAWNER.id) expect(readdirSync(env.REFEREE_CACHE_DIR).filter((name) => name.startsWith('native-'))).toEqual([]);
  });
});

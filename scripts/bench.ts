/**
 * `npm run bench`: figures for the hot paths, with the reference figures they compare against
 * (shared/ARCHITECTURE.md). Prints numbers and ratios; asserts nothing about time.
 */
import { cpus, loadavg } from 'node:os';
import { getGame } from '../harness/games/registry.js';
import { reversi } from '../harness/games/reversi/index.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import { playGame } from '../harness/referee/match.js';
import { deriveSeed } from '../harness/referee/seed.js';
import { randomAgent } from '../reference-ai/generic/random.js';
import { benchBotzone } from './bench-botzone.js';
import { benchCpp } from './bench-cpp.js';
import { benchCredit } from './bench-credit.js';
import { benchThreadCredit } from './bench-thread-credit.js';
import { benchPython } from './bench-python.js';
import { benchFreeze, benchSandbox } from './bench-sandbox.js';
import { benchLandlock } from './bench-landlock.js';
import { benchWatch, benchWeb } from './bench-web.js';
import { benchBoard } from './bench-board.js';
import { benchBoards, edaxLeavesPerCpuSecond } from './bench-boards.js';
import { benchTable } from './bench-table.js';
import { benchRatings, benchSprt } from './bench-sprt.js';
import { benchInstall } from './bench-install.js';
import { benchSimilarity } from './bench-similarity.js';
import { benchStartup, benchStartupQuiet } from './bench-startup.js';
import { platformGamesPerSecond } from './bench-support.js';

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(1);
}

/**
 * Reversi perft per CPU second, each depth, with the load before each; perft(11) beside Edax's when the user names an
 * Edax run (--edax or REFEREE_EDAX), interleaved (Edax, Referee, Edax, Referee). No recorded figure stands in for it.
 */
export function benchPerft(depths: number[]): void {
  console.log('## Reversi perft (start position, passes take a ply), per CPU second');
  const cpu = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1e6;
  };
  const edax: number[] = [];
  for (const depth of depths) {
    let best = 0;
    let leaves = 0;
    const loads: number[] = [];
    for (let round = 0; round < (depth === 11 ? 2 : 1); round++) {
      if (depth === 11) {
        const anchor = edaxLeavesPerCpuSecond();
        if ('rate' in anchor) edax.push(anchor.rate);
        else if (round === 0) console.log(`Edax: ${anchor.why}`);
      }
      loads.push(loadavg()[0]);
      const start = cpu();
      leaves = reversi.perft!(reversi.initial(), depth);
      best = Math.max(best, leaves / (cpu() - start));
    }
    const anchor = depth === 11 && edax.length
      ? `  ${(best / Math.max(...edax)).toFixed(2)}x Edax's ${fmt(Math.max(...edax))}/s (same run, per CPU s; goal ≥ 0.33x)`
      : '';
    console.log(`perft(${depth}) = ${leaves}  ${fmt(best)} leaves per CPU s${anchor}  load ${loads.map((one) => one.toFixed(1)).join(' ')}`);
  }
}

/** Random vs random through the Game interface alone: the rules' cost per game, no referee. */
export function benchRulesGames(seconds: number): number {
  let seed = 1;
  const rnd = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) | 0;
    return (seed >>> 0) / 4294967296;
  };
  const deadline = performance.now() + seconds * 1000;
  let games = 0;
  while (performance.now() < deadline) {
    let s = reversi.initial();
    while (!reversi.isTerminal(s)) {
      const moves = reversi.legalMoves(s);
      s = moves.length ? reversi.apply(s, moves[Math.floor(rnd() * moves.length)]) : reversi.pass(s);
    }
    games++;
  }
  const rate = games / seconds;
  console.log(`rules only, random vs random: ${fmt(rate)} games/s on one core ` +
    `(${(rate / platformGamesPerSecond()).toFixed(0)}x the platform's game.py: ${platformGamesPerSecond().toFixed(1)} games/s in this run, one core)`);
  return rate;
}

/** Random vs random through the referee (playGame, in-process players): the rules plus the harness per game. */
export async function benchRefereeGames(seconds: number, rulesRate: number): Promise<void> {
  const black = new InProcessPlayer('random-a', randomAgent, getGame);
  const white = new InProcessPlayer('random-b', randomAgent, getGame);
  const deadline = performance.now() + seconds * 1000;
  let games = 0;
  let plies = 0;
  while (performance.now() < deadline) {
    const record = await playGame({ game: reversi, black, white, seed: deriveSeed(7, games) });
    plies += record.turns.length;
    games++;
  }
  const rate = games / seconds;
  console.log(`referee in-process, random vs random: ${fmt(rate)} games/s on one core, ` +
    `${((seconds * 1e6) / plies).toFixed(1)} µs/ply (${(rate / platformGamesPerSecond()).toFixed(0)}x the platform's ` +
    `game.py; ${(rulesRate / rate).toFixed(1)}x slower than the bare rules)`);
}

async function main(): Promise<void> {
  // `startup --quiet-check [--quiet-load N] [--quiet-wait MIN]`: the start-up goals judged in a quiet window.
  const flagValue = (flag: string): number | undefined => {
    const at = process.argv.indexOf(flag);
    return at > 0 && Number.isFinite(Number(process.argv[at + 1])) ? Number(process.argv[at + 1]) : undefined;
  };
  const valued = new Set(['--edax', '--quiet-load', '--quiet-wait']);
  const only = process.argv.slice(2).filter((arg, i, all) => !valued.has(arg) && !valued.has(all[i - 1]) && arg !== '--quiet-check');
  const want = (name: string) => only.length === 0 || only.includes(name);
  // `npm run bench -- perft games` runs only the named sections: the names are the want('…') calls below.
  console.log(`Referee bench — Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ` +
    `load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} (a shared machine swings every figure: read the ratios)`);
  if (process.argv.includes('--quiet-check')) {
    // Only the start-up goals, judged in a quiet window (nothing else runs beside them).
    console.log('');
    await benchStartupQuiet(flagValue('--quiet-load'), flagValue('--quiet-wait'));
    return;
  }
  // Minutes of sandboxed probes: only when named (`npm run bench -- similarity`).
  if (only.includes('similarity')) {
    await benchSimilarity();
    console.log('');
  }
  // Games beside CPU hogs, before and after moves were credited (a minute or more): only when named (`-- credit`).
  if (only.includes('credit')) {
    await benchCredit();
    console.log('');
  }
  // The credit of a player working in short-lived threads, beside CPU hogs: only when named (`-- thread-credit`).
  if (only.includes('thread-credit')) {
    await benchThreadCredit();
    console.log('');
  }
  if (want('table')) {
    await benchTable();
    console.log('');
  }
  if (want('perft')) benchPerft([10, 11]);
  if (want('games')) {
    console.log('\n## Games per second');
    const rulesRate = benchRulesGames(3);
    await benchRefereeGames(3, rulesRate);
  }
  if (want('sandbox')) {
    console.log('');
    await benchSandbox();
  }
  if (want('freeze')) {
    console.log('');
    await benchFreeze();
  }
  if (want('landlock')) {
    console.log('');
    await benchLandlock();
  }
  if (want('python')) {
    console.log('');
    await benchPython();
  }
  if (want('cpp')) {
    console.log('');
    await benchCpp();
  }
  if (want('botzone')) {
    console.log('');
    await benchBotzone();
  }
  // The ruling row alone (a minute or two): `npm run bench -- botzone-ruling`.
  if (only.includes('botzone-ruling') && !want('botzone')) {
    console.log('');
    await benchBotzone(true);
  }
  if (want('web')) {
    console.log('');
    await benchWeb();
  }
  if (want('board')) {
    console.log('');
    benchBoard();
  }
  if (want('boards')) {
    console.log('');
    benchBoards();
  }
  if (want('watch')) {
    console.log('');
    await benchWatch();
  }
  if (want('sprt')) {
    console.log('');
    benchSprt();
  }
  if (want('ratings')) {
    console.log('');
    benchRatings();
  }
  if (want('install')) {
    console.log('');
    benchInstall();
  }
  if (want('startup')) {
    console.log('');
    benchStartup();
  }
}

await main();

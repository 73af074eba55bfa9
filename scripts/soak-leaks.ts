/**
 * `npm run soak:leaks [-- --games 200 --jobs 2]`: what a grader that runs all semester leaks. Starts the real ladder
 * server (dist/cli/index.js ladder start on a free port), submits two TypeScript students over HTTP with
 * `referee ladder submit`, lets matchmaking play until the leaderboard counts N games, and prints, as the games
 * go: the server's open fds, its descendants (fork workers and their sandboxes) and zombies among them, the cgroups
 * named with any pid of that tree, and the staging folders (/run or the temp folder, referee-<pid>-*) of those pids.
 * Then stops the server with SIGTERM and counts what is left. Not part of `npm test` (a few minutes of games).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectCgroups } from '../harness/sandbox/cgroup.js';

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const repo = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(repo, 'dist/cli/index.js');
const target = Number(option('games', '200'));
const jobs = option('jobs', '2');

const support = detectCgroups();
const cgroupParents = support ? [...new Set([...Object.values(support.dirs), ...(support.freezer ? [support.freezer] : [])])] : [];
const stagingParents = [...new Set(['/run', tmpdir()])];

/** Every process's parent, from /proc. */
function parents(): Map<number, { ppid: number; zombie: boolean }> {
  const table = new Map<number, { ppid: number; zombie: boolean }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { ppid: Number(fields[1]), zombie: fields[0] === 'Z' });
    } catch {
      // gone while we looked
    }
  }
  return table;
}

function descendants(root: number): { pids: number[]; zombies: number } {
  const table = parents();
  const found: number[] = [];
  let zombies = 0;
  const walk = (pid: number): void => {
    for (const [child, entry] of table) {
      if (entry.ppid !== pid) continue;
      found.push(child);
      if (entry.zombie) zombies++;
      walk(child);
    }
  };
  walk(root);
  return { pids: found, zombies };
}

const named = (dirs: string[], pids: Set<number>): number =>
  dirs.reduce((sum, dir) => {
    try {
      return sum + readdirSync(dir).filter((name) => pids.has(Number(/^referee-(\d+)-/.exec(name)?.[1]))).length;
    } catch {
      return sum;
    }
  }, 0);

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'referee-soak-leaks-'));
  writeFileSync(
    join(root, 'assignment.json'),
    JSON.stringify({ title: 'Leak soak', game: 'reversi', moveTimeoutMs: 3000, constructTimeoutMs: 5000, opponents: [{ name: 'random', games: 2, points: 10 }], tournament: { title: 'Rank', points: 10, scoring: { rule: 'rank', fullPercentile: 0, zeroPercentile: 1 } } }),
  );
  writeFileSync(join(root, 'roster.csv'), 'student,name\na,Ann\nb,Bob\n');
  cpSync(join(repo, 'tests/fixtures/submissions/random-ts'), join(root, 'a'), { recursive: true });
  cpSync(join(repo, 'tests/fixtures/students/weak'), join(root, 'b'), { recursive: true });
  const data = join(root, 'data');
  const server = spawn(process.execPath, [CLI, 'ladder', 'start', '--config', join(root, 'assignment.json'), '--roster', join(root, 'roster.csv'), '--data', data, '--port', '0', '--jobs', jobs, '--cooldown', '0', '--opening-plies', '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = server.pid as number;
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /referee ladder: (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    server.once('exit', () => reject(new Error(`the ladder server exited: ${out}`)));
  });
  const tokens = Object.fromEntries(readFileSync(join(data, 'tokens.csv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split(',')));
  const rows: Record<string, number>[] = [];
  const seen = new Set<number>([pid]);
  const games = async (): Promise<number> => Number(((await (await fetch(new URL('/api/leaderboard', url))).json()) as { games: number }).games);
  const sample = async (): Promise<Record<string, number>> => {
    const tree = descendants(pid);
    for (const child of tree.pids) seen.add(child);
    return {
      games: await games(),
      fds: readdirSync(`/proc/${pid}/fd`).length,
      descendants: tree.pids.length,
      zombies: tree.zombies,
      cgroups: named(cgroupParents, seen),
      staged: named(stagingParents, seen),
    };
  };
  // The idle server, before any submission.
  rows.push(await sample());
  for (const student of ['a', 'b']) {
    const submitted = spawnSync(process.execPath, [CLI, 'ladder', 'submit', join(root, student), '--url', url, '--token', tokens[student]], { encoding: 'utf8' });
    if (submitted.status !== 0) throw new Error(`submit ${student}: ${submitted.stdout}${submitted.stderr}`);
  }
  let next = 1;
  const started = Date.now();
  for (;;) {
    const row = await sample();
    if (row.games >= next || row.games >= target) {
      rows.push(row);
      console.log(JSON.stringify({ ...row, s: Math.round((Date.now() - started) / 1000) }));
      next = row.games === 0 ? 1 : Math.max(next + Math.ceil(target / 10), row.games + 1);
    }
    if (row.games >= target) break;
    await sleep(1000);
  }
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  // What a stopped server left: its groups and staged folders (its sandboxes had a moment to go).
  await sleep(3000);
  const left = { cgroups: named(cgroupParents, seen), staged: named(stagingParents, seen), living: [...seen].filter((one) => one !== pid && existsSync(`/proc/${one}`)).length };
  console.log(`after ${rows.at(-1)?.games} games over ${Math.round((Date.now() - started) / 1000)} s (pids seen: ${seen.size}):`);
  console.table(rows);
  console.log(`stopped with SIGTERM: ${JSON.stringify(left)} left`);
}

await main();

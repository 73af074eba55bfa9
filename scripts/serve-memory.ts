/**
 * `npm run measure:serve-memory [-- --clients 50 --ai greedy]`: the memory `referee serve` keeps for finished games.
 * Starts the real command (dist/cli/index.js serve on a free port), lets N websocket clients each play a game of
 * Reversi to the end (the person's side plays its first legal move, the other side a reference AI in its worker),
 * disconnects them all, and prints the server's resident memory (VmRSS) before, at the peak and after.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { playServeGame } from './serve-game.js';

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
};

const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One client: a new game as Black against `ai`, played to its end; resolves with the game's id. */
const playOne = (port: number, ai: string): Promise<string> => playServeGame(`ws://127.0.0.1:${port}/ws`, { kind: 'reference', name: ai });

async function main(): Promise<void> {
  const clients = Number(option('clients', '50'));
  const ai = option('ai', 'greedy');
  const cli = fileURLToPath(new URL('../cli/index.js', import.meta.url));
  const server = spawn(process.execPath, [cli, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    server.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
      if (found) resolve(Number(found[1]));
    });
    server.once('exit', (code) => reject(new Error(`referee serve exited (${code}) before it listened`)));
  });
  try {
    await sleep(1000);
    const before = rssMb(server.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid!))), 100);
    const started = Date.now();
    const ids = await Promise.all(Array.from({ length: clients }, () => playOne(port, ai)));
    clearInterval(sampler);
    const played = (Date.now() - started) / 1000;
    // The server's own sweeps and the garbage collector get a moment; nobody is connected any more.
    await sleep(3000);
    let after = rssMb(server.pid!);
    // Closed worker threads hand their memory back over a few seconds: wait until RSS stops falling (at most 30 s).
    for (let waited = 0; waited < 30_000; waited += 2000) {
      await sleep(2000);
      const now = rssMb(server.pid!);
      if (now > after - 2) break;
      after = now;
    }
    const threads = readdirSync(`/proc/${server.pid}/task`).length;
    const response = await fetch(`http://127.0.0.1:${port}/api/games/${ids[0]}/record.json`);
    console.log(`referee serve, ${clients} clients each playing Reversi to the end against ${ai} (${played.toFixed(1)} s):`);
    console.log(`  RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after all left ${after.toFixed(0)} MB (${((after - before) / clients).toFixed(2)} MB a finished game)`);
    console.log(`  threads after all left: ${threads}; the first game's record: HTTP ${response.status}`);
  } finally {
    server.kill('SIGTERM');
  }
}

await main();

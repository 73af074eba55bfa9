/**
 * `npm run bench -- web`: the latency a person feels in `referee serve` — from sending a move over the websocket
 * to the snapshot in which the AI (random, searching in its worker thread) has replied and the person may move
 * again. A real server on a free port and a real websocket client; Reversi, new games until enough samples.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { BATCH_JOURNAL_FILE, BatchJournal } from '../grading/batch/journal-db.js';
import { LiveGames } from '../grading/live.js';
import { getGame } from '../harness/games/registry.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import { playGame } from '../harness/referee/match.js';
import { referenceAgentByName } from '../reference-ai/budget.js';
import { startServer } from '../web/server/app.js';
import { WatchSource } from '../web/server/watch.js';
import type { ServerMessage, SessionSnapshot } from '../web/server/protocol.js';
import { bareStdioMicros, percentile } from './bench-support.js';

export async function benchWeb(samples = 400, seconds = 8): Promise<void> {
  console.log('## Web: human move → AI reply (random) through the websocket');
  const game = getGame('reversi');
  const server = await startServer({ host: '127.0.0.1', port: 0, token: null, defaultGame: 'reversi', submissions: [], rateLimit: { rate: 1e6, burst: 1e6 } });
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  try {
    await new Promise<void>((resolve, reject) => {
      let sentAt = 0;
      let sentPly = -1;
      const newGame = (): void => {
        sentPly = -1;
        socket.send(JSON.stringify({ type: 'new', game: 'reversi', black: { kind: 'human' }, white: { kind: 'reference', name: 'random' } }));
      };
      const onSnapshot = (snap: SessionSnapshot): void => {
        if (snap.end) {
          if (latencies.length >= samples || performance.now() > deadline) resolve();
          else newGame();
          return;
        }
        if (snap.humanToMove !== 0 || snap.turns.length <= sentPly) return;
        if (sentPly >= 0) latencies.push(performance.now() - sentAt);
        if (latencies.length >= samples || performance.now() > deadline) return resolve();
        let state = game.initial(snap.seed);
        for (const turn of snap.turns) state = turn.kind === 'pass' ? game.pass(state) : game.apply(state, game.parseMove(turn.move!));
        const legal = game.legalMoves(state);
        sentPly = snap.turns.length;
        sentAt = performance.now();
        socket.send(JSON.stringify({ type: 'move', ply: sentPly + 1, move: game.formatMove(legal[0]) }));
      };
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as ServerMessage;
        if (message.type === 'welcome') newGame();
        else if (message.type === 'session') onSnapshot(message.snapshot);
        else if (message.type === 'error') reject(new Error(message.message));
      });
      socket.on('error', reject);
    });
  } finally {
    socket.close();
    await server.close();
  }
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  // The floor of any move that crosses a process, measured now: a bare node child echoing JSON lines over stdio.
  const bare = (await bareStdioMicros(500)) / 1000;
  console.log(
    `  ${latencies.length} moves: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms ` +
      `(${(p50 / bare).toFixed(0)}x / ${(p99 / bare).toFixed(0)}x a bare stdio JSON-lines round trip, p50 ${bare.toFixed(3)} ms in this run; load ${loadavg()[0].toFixed(1)})`,
  );
}

/**
 * `npm run bench -- watch`: what `referee serve --watch` costs on a class-sized journal — one overview (the page
 * polls it every second) and one game in play (polled every 250 ms while followed) — read from a real batch
 * journal of real records, as its live sink writes it.
 */
export async function benchWatch(students = 300, gamesEach = 20, inPlay = 40): Promise<void> {
  console.log(`## Watch: a batch journal of ${students} students × ${gamesEach} games, ${inPlay} games in play`);
  const dir = mkdtempSync(join(tmpdir(), 'referee-bench-watch-'));
  try {
    const journal = BatchJournal.open(join(dir, BATCH_JOURNAL_FILE));
    const game = getGame('reversi');
    const record = await playGame({
      game,
      black: new InProcessPlayer('random', referenceAgentByName('reversi', 'random'), getGame),
      white: new InProcessPlayer('greedy', referenceAgentByName('reversi', 'greedy'), getGame),
      seed: 1,
    });
    const text = JSON.stringify(record);
    const insert = journal.db.prepare('INSERT INTO games (key, student, wall_ms, record, finished_at, worker) VALUES (?, ?, 10, ?, ?, ?)');
    journal.db.transaction(() => {
      for (let s = 0; s < students; s++) {
        for (let g = 0; g < gamesEach; g++) insert.run(`k${s}-${g}`, `student${s}`, text, new Date(Date.UTC(2026, 0, 1, 0, 0, s * gamesEach + g)).toISOString(), `local ${g % 8}`);
      }
    })();
    const live = new LiveGames(journal.liveSink());
    const moves = record.turns.map((turn) => (turn.kind === 'move' ? turn.move! : null));
    for (let i = 0; i < inPlay; i++) {
      live.start(`live${i}`, `student${i}`, `local ${i % 8}`);
      live.progress(`live${i}`, { game: 'reversi', players: record.players, seed: 1, initialState: record.initialState, moves: moves.slice(0, 30), ms: moves.slice(0, 30).map(() => 10) });
    }
    live.flush();
    const watch = new WatchSource(dir);
    const time = (run: () => unknown, times: number): { median: number; bytes: number } => {
      const took: number[] = [];
      let bytes = 0;
      for (let i = 0; i < times; i++) {
        const started = performance.now();
        bytes = JSON.stringify(run()).length;
        took.push(performance.now() - started);
      }
      took.sort((a, b) => a - b);
      return { median: percentile(took, 50), bytes };
    };
    const overview = time(() => watch.overview(), 20);
    const followed = time(() => watch.liveGame('live7'), 200);
    console.log(`  overview     ${overview.median.toFixed(1)} ms a poll (${((overview.median / 1000) * 100).toFixed(1)}% of the 1 s poll), ${(overview.bytes / 1024).toFixed(0)} KB sent when it changes`);
    console.log(`  game in play ${followed.median.toFixed(2)} ms a poll (${((followed.median / 250) * 100).toFixed(2)}% of the 250 ms poll), ${(followed.bytes / 1024).toFixed(1)} KB`);
    watch.close();
    live.close('done');
    journal.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

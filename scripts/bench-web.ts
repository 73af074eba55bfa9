/**
 * `npm run bench -- web`: the latency a person feels in `referee serve` — from sending a move over the websocket
 * to the snapshot in which the AI (random, searching in its worker thread) has replied and the person may move
 * again. A real server on a free port and a real websocket client; Reversi, new games until enough samples.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { getGame } from '../harness/games/registry.js';
import { startServer } from '../web/server/app.js';
import type { ServerMessage, SessionSnapshot } from '../web/server/protocol.js';
import { percentile } from './bench-support.js';

/** The sandbox's JSON-lines round trip (shared/ARCHITECTURE.md): the floor of any move that crosses a process. */
const IPC_ROUND_TRIP_MS = 0.125;

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
  console.log(
    `  ${latencies.length} moves: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms ` +
      `(${(p50 / IPC_ROUND_TRIP_MS).toFixed(0)}x / ${(p99 / IPC_ROUND_TRIP_MS).toFixed(0)}x the sandbox's 0.125 ms IPC round trip)`,
  );
}

/**
 * `referee serve` keeps a finished game as a record, not a live session: its AI players are closed when it ends
 * (a restart makes them again), finished games are capped and aged, and a page or record link of a removed game
 * says why. A real server on a free port and real websocket clients (the memory figure: npm run measure:serve-memory).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync } from 'node:fs';
import WebSocket from 'ws';
import { getGame } from '../../harness/games/registry.js';
import { startServer, type RunningServer } from '../../web/server/app.js';
import type { ServerMessage, SessionSnapshot } from '../../web/server/protocol.js';

const game = getGame('reversi');
let server: RunningServer;
const threads = (): number => readdirSync('/proc/self/task').length;

/** A client that plays Black (its first legal move) against random; `next` waits for a message that passes `want`. */
function client(): { socket: WebSocket; next: (want: (message: ServerMessage) => boolean) => Promise<ServerMessage> } {
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  const seen: ServerMessage[] = [];
  const waiters: { want: (message: ServerMessage) => boolean; done: (message: ServerMessage) => void }[] = [];
  let sentPly = -1;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as ServerMessage;
    if (message.type === 'session') {
      const snap: SessionSnapshot = message.snapshot;
      if (!snap.end && snap.humanToMove === 0 && snap.turns.length > sentPly) {
        let state = game.initial(snap.seed);
        for (const turn of snap.turns) state = turn.kind === 'pass' ? game.pass(state) : game.apply(state, game.parseMove(turn.move!));
        sentPly = snap.turns.length;
        socket.send(JSON.stringify({ type: 'move', ply: sentPly + 1, move: game.formatMove(game.legalMoves(state)[0]) }));
      }
      if (snap.turns.length === 0) sentPly = -1;
    }
    seen.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.want(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done(message);
      }
    }
  });
  const next = (want: (message: ServerMessage) => boolean): Promise<ServerMessage> => new Promise((done) => waiters.push({ want, done }));
  return { socket, next };
}

const ended = (message: ServerMessage): boolean => message.type === 'session' && message.snapshot.end !== null;
const NEW = JSON.stringify({ type: 'new', game: 'reversi', black: { kind: 'human' }, white: { kind: 'reference', name: 'random' } });

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, token: null, defaultGame: 'reversi', submissions: [], maxFinished: 1, rateLimit: { rate: 1e6, burst: 1e6 } });
});
afterAll(async () => {
  await server.close();
});

describe('finished games in referee serve', () => {
  test('players are closed at the end and made again by a restart; beyond the cap the oldest goes, and its page and record say why', async () => {
    const first = client();
    await first.next((message) => message.type === 'welcome');
    const idle = threads();
    first.socket.send(NEW);
    const over = (await first.next(ended)) as Extract<ServerMessage, { type: 'session' }>;
    const id = over.snapshot.id;
    // The AI's worker thread ends with the game (the session keeps turns and the record only).
    while (threads() > idle) await new Promise((resolve) => setTimeout(resolve, 50));
    const record = await fetch(`http://127.0.0.1:${server.port}/api/games/${id}/record.json`);
    expect(record.status).toBe(200);
    expect(((await record.json()) as { end: unknown }).end).toBeTruthy();
    // Restart after the end: the AI is made again and the game is played to its end once more.
    first.socket.send(JSON.stringify({ type: 'restart' }));
    await first.next((message) => message.type === 'session' && message.snapshot.id === id && message.snapshot.turns.length === 0 && message.snapshot.end === null);
    await first.next(ended);
    first.socket.close();

    const second = client();
    await second.next((message) => message.type === 'welcome');
    second.socket.send(NEW);
    await second.next(ended);
    second.socket.close();

    // The cap is 1 finished game: the first is gone, with the reason, on its page and at its record's address.
    const again = client();
    await again.next((message) => message.type === 'welcome');
    again.socket.send(JSON.stringify({ type: 'hello', session: id }));
    const gone = await again.next((message) => message.type === 'gone');
    expect(gone).toEqual({ type: 'gone', session: id, reason: expect.stringMatching(/^this game ended on \d+ \w+ \d{4}, \d\d:\d\d UTC and was removed from the server to make room \(it keeps the 1 latest finished game\): press Save/) });
    const removed = await fetch(`http://127.0.0.1:${server.port}/api/games/${id}/record.json`);
    expect(removed.status).toBe(410);
    expect(await removed.text()).toMatch(/was removed from the server to make room/);
    again.socket.close();
  });
});

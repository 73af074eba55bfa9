/**
 * One game on a `referee serve` page over its websocket, played to its end: a person as Black who plays the first
 * legal move, against `white` (a reference AI or a submission the server was started with). Shared by the serve
 * measurements (serve-memory.ts) and the leak test; resolves with the game's id once the socket has closed.
 */
import WebSocket from 'ws';
import { getGame } from '../harness/games/registry.js';
import type { ServerMessage, SessionSnapshot, SideSpec } from '../web/server/protocol.js';

export function playServeGame(wsUrl: string, white: SideSpec, onTurn: () => void = () => undefined): Promise<string> {
  const game = getGame('reversi');
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl);
    let sentPly = -1;
    const onSnapshot = (snap: SessionSnapshot): void => {
      if (snap.end) {
        socket.once('close', () => resolve(snap.id));
        socket.close();
        return;
      }
      if (snap.humanToMove !== 0 || snap.turns.length <= sentPly) return;
      onTurn();
      let state = game.initial(snap.seed);
      for (const turn of snap.turns) state = turn.kind === 'pass' ? game.pass(state) : game.apply(state, game.parseMove(turn.move!));
      sentPly = snap.turns.length;
      socket.send(JSON.stringify({ type: 'move', ply: sentPly + 1, move: game.formatMove(game.legalMoves(state)[0]) }));
    };
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.type === 'welcome') socket.send(JSON.stringify({ type: 'new', game: 'reversi', black: { kind: 'human' }, white }));
      else if (message.type === 'session') onSnapshot(message.snapshot);
      else if (message.type === 'error' && !/too many messages/.test(message.message)) reject(new Error(message.message));
    });
    socket.on('error', reject);
  });
}

/**
 * Worker-thread entry for a reference AI: the agent's synchronous search runs here so the web server's event
 * loop never blocks. One worker serves one player (one side of one session); it holds that side's agent.
 */
import { parentPort } from 'node:worker_threads';
import { getGame } from '../../harness/games/registry.js';
import type { Agent } from '../../harness/referee/agent.js';
import type { MoveInfo } from '../../harness/referee/player.js';
import { referenceAgent } from '../../reference-ai/index.js';

export type WorkerRequest =
  | { kind: 'start'; id: number; game: string; name: string; side: 0 | 1; seed: number }
  | { kind: 'move'; id: number; state: string; info: MoveInfo };

export type WorkerReply =
  | { id: number; kind: 'ready' }
  | { id: number; kind: 'move'; value: string }
  | { id: number; kind: 'error'; message: string; stack?: string };

let current: { agent: Agent; gameId: string } | null = null;

parentPort?.on('message', (request: WorkerRequest) => {
  const reply = (message: WorkerReply): void => parentPort!.postMessage(message);
  try {
    if (request.kind === 'start') {
      const game = getGame(request.game);
      current = { agent: referenceAgent(game.id, request.name)(game, request.side, request.seed), gameId: game.id };
      reply({ id: request.id, kind: 'ready' });
      return;
    }
    if (current === null) throw new Error('asked for a move before the game started');
    const game = getGame(current.gameId);
    const move = current.agent.choose(game.decode(request.state), request.info);
    reply({ id: request.id, kind: 'move', value: game.formatMove(move) });
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    reply({ id: request.id, kind: 'error', message: `${err.name}: ${err.message}`, stack: err.stack });
  }
});

/** Wraps a ReversiEngine configuration as an agent: one engine per game, a lone legal move played at once. */
import { orderedMoves } from '../../harness/games/reversi/core.js';
import type { ReversiState } from '../../harness/games/reversi/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { requireReversi, sidesOf } from './position.js';
import { ReversiEngine, type EngineOptions } from './search.js';

export function engineAgent(name: string, options: EngineOptions): AgentFactory {
  return (game) => {
    requireReversi(game, name);
    const engine = new ReversiEngine(options);
    let nodes = 0;
    const agent = {
      choose(state: unknown) {
        const { ph, pl, oh, ol } = sidesOf(state as ReversiState);
        const moves = orderedMoves(ph, pl, oh, ol);
        if (moves.length === 1) return moves[0];
        const result = engine.search(ph, pl, oh, ol);
        nodes += result.nodes;
        return result.move;
      },
      /** Positions searched so far in this game (the bench's nodes/s). */
      get nodes(): number {
        return nodes;
      },
    };
    return agent;
  };
}

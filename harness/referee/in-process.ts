/**
 * A trusted agent (a reference AI) as a Player, in the referee's own process: no IPC, no sandbox. The state
 * crosses the same encoded boundary as for a sandboxed player, so agents see exactly what submissions see.
 * Agents are synchronous and budget by nodes, so the referee's timer could not interrupt them anyway; as trusted
 * players they are timed but never ruled late, so a slow machine plays the same seeded games.
 */
import type { AnyGame } from '../games/game.js';
import type { Agent, AgentFactory } from './agent.js';
import type { GameStart, MoveRequest, Player, PlayerAnswer } from './player.js';

function failure(error: unknown): PlayerAnswer {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: 'error', message, stack: error instanceof Error ? error.stack : undefined };
}

export class InProcessPlayer implements Player {
  /** Reference AIs budget by nodes: their moves are timed but never ruled late (see Player.trusted). */
  readonly trusted = true;
  private game: AnyGame | null = null;
  private agent: Agent | null = null;

  constructor(
    readonly name: string,
    private readonly factory: AgentFactory,
    private readonly gameLookup: (id: string) => AnyGame,
  ) {}

  async startGame(start: GameStart): Promise<PlayerAnswer> {
    this.agent = null;
    try {
      this.game = this.gameLookup(start.game);
      this.agent = this.factory(this.game, start.side, start.seed, this.game.decode(start.initialState));
      return { kind: 'ready' };
    } catch (error) {
      return failure(error);
    }
  }

  async requestMove(request: MoveRequest): Promise<PlayerAnswer> {
    const { game, agent } = this;
    if (game === null || agent === null) {
      return { kind: 'protocol', message: `${this.name} was asked for a move outside a game (startGame first)` };
    }
    try {
      const move = agent.choose(game.decode(request.state), request.info);
      return { kind: 'move', value: game.formatMove(move) };
    } catch (error) {
      return failure(error);
    }
  }

  async abort(): Promise<void> {
    this.agent = null;
  }

  async endGame(): Promise<void> {
    this.agent = null;
  }

  async close(): Promise<void> {
    this.agent = null;
    this.game = null;
  }
}

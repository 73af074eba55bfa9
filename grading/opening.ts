/**
 * Variety for deterministic reference AIs: the opponent plays its first few moves at random, drawn from the game's
 * seed, then its own choices. Without it a deterministic opponent plays the same two games (one per colour) over
 * and over, and a win rate over ten games says no more than two; with it each seed is a different, reproducible game.
 */
import type { AnyGame } from '../harness/games/game.js';
import type { AgentFactory } from '../harness/referee/agent.js';
import type { GameStart, MoveRequest, Player, PlayerAnswer } from '../harness/referee/player.js';
import { createRng } from '../harness/referee/seed.js';

export function withRandomOpening(factory: AgentFactory, moves: number): AgentFactory {
  if (moves <= 0) return factory;
  return (game, side, seed) => {
    const agent = factory(game, side, seed);
    const rng = createRng(seed);
    return {
      choose(state, info) {
        if (info.moveNumber > moves) return agent.choose(state, info);
        const legal = game.legalMoves(state);
        return legal[rng.int(legal.length)];
      },
    };
  };
}

/**
 * A book opening (a tournament's paired opening): the positions along a line of moves from the start of `seed`
 * → the move to play there. Stops at a move that is not legal there (a line from a file on a seeded layout it
 * does not fit) and says how many moves it kept.
 */
export function openingBook(game: AnyGame, seed: number, line: readonly string[]): { book: Map<string, string>; played: number } {
  let state = game.initial(seed);
  const book = new Map<string, string>();
  let played = 0;
  for (const text of line) {
    while (!game.isTerminal(state) && game.legalMoves(state).length === 0) state = game.pass(state);
    const move = game.parseMove(text);
    if (move === null || game.isTerminal(state)) break;
    if (!game.legalMoves(state).some((candidate) => game.formatMove(candidate) === text)) break;
    book.set(game.encode(state), text);
    state = game.apply(state, move);
    played += 1;
  }
  return { book, played };
}

/** `player`, answering the book's move in the book's positions without asking it (so both sides play the line). */
export function withBook(player: Player, book: ReadonlyMap<string, string>): Player {
  if (book.size === 0) return player;
  return {
    name: player.name,
    trusted: player.trusted,
    // Per-language time multipliers (a Botzone preset) follow the player it wraps.
    language: player.language,
    // The sandbox's isolation record (read when the game ends): a booked game records it like any other.
    get isolation() {
      return player.isolation;
    },
    ...(player.load ? { load: (start: GameStart) => player.load!(start) } : {}),
    startGame: (start: GameStart) => player.startGame(start),
    async requestMove(request: MoveRequest): Promise<PlayerAnswer> {
      const booked = book.get(request.state);
      return booked === undefined ? player.requestMove(request) : { kind: 'move', value: booked };
    },
    abort: (reason: string) => player.abort(reason),
    endGame: () => player.endGame(),
    close: () => player.close(),
  };
}

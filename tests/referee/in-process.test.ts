import type { AgentFactory } from '../../harness/referee/agent.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import type { MoveInfo } from '../../harness/referee/player.js';
import { lookupOnly } from './helpers/agents.js';
import { makeTinyGame } from './helpers/tiny-game.js';

const game = makeTinyGame('x*o');
const info: MoveInfo = { color: 'X', timeLimitMs: 1000, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 3, lastMove: null };
const start = { game: 'tiny', side: 0 as const, seed: 5, initialState: 'x*o:0', timeLimitMs: 1000 };

describe('InProcessPlayer', () => {
  test('builds an agent per game with the side and seed, and answers its move in notation', async () => {
    const built: unknown[] = [];
    const seen: unknown[] = [];
    const factory: AgentFactory = (g, side, seed) => {
      built.push([g.id, side, seed]);
      return {
        choose(state, moveInfo) {
          seen.push([state, moveInfo]);
          return 1;
        },
      };
    };
    const player = new InProcessPlayer('second', factory, lookupOnly(game));
    expect(await player.startGame(start)).toEqual({ kind: 'ready' });
    expect(await player.requestMove({ state: 'x*o:0', info })).toEqual({ kind: 'move', value: 'B' });
    expect(built).toEqual([['tiny', 0, 5]]);
    expect(seen).toEqual([[{ cells: 'x*o', side: 0 }, info]]);
  });

  test('agent and lookup failures become error answers; moves outside a game are a protocol error', async () => {
    const throwing: AgentFactory = () => ({
      choose() {
        throw new RangeError('no idea');
      },
    });
    const player = new InProcessPlayer('thrower', throwing, lookupOnly(game));
    expect(await player.requestMove({ state: 'x*o:0', info })).toMatchObject({ kind: 'protocol' });
    await player.startGame(start);
    expect(await player.requestMove({ state: 'x*o:0', info })).toMatchObject({ kind: 'error', message: 'RangeError: no idea' });
    expect(await player.requestMove({ state: 'garbage', info })).toMatchObject({ kind: 'error', message: /bad state/ });
    expect(await player.startGame({ ...start, game: 'chess' })).toMatchObject({ kind: 'error', message: /unknown game "chess"/ });
    const broken = new InProcessPlayer('broken', () => {
      throw new Error('ctor');
    }, lookupOnly(game));
    expect(await broken.startGame(start)).toMatchObject({ kind: 'error', message: 'Error: ctor' });
    await player.endGame();
    expect(await player.requestMove({ state: 'x*o:0', info })).toMatchObject({ kind: 'protocol' });
    await player.close();
    await player.close();
  });
});

/**
 * `npm run bench -- board`: what the web board computes from a game's geometry on each redraw, outside the DOM — the
 * cells of the position, where each legal move lands, and the reason against every other cell (the keyboard's
 * labels) — on mid-game positions of every game. A redraw happens once a move; the browser's own drawing is extra.
 */
import { gameIds, getGame } from '../harness/games/registry.js';

const { performance } = globalThis;

export function benchBoard(): void {
  console.log('## The web board: geometry work per redraw (mid-game position, every cell explained)');
  for (const id of gameIds()) {
    const game = getGame(id);
    const geometry = game.geometry!;
    let state = game.initial(1);
    for (let ply = 0; ply < 20 && !game.isTerminal(state); ply++) {
      const moves = game.legalMoves(state);
      state = moves.length === 0 ? game.pass(state) : game.apply(state, moves[(ply * 7) % moves.length]);
    }
    const redraw = (): number => {
      const cells = geometry.cells(state, 560);
      const legal = new Set(game.legalMoves(state).map((move) => game.formatMove(move)));
      let explained = 0;
      for (const move of legal) if (geometry.landing(state, move) !== null) explained++;
      for (const cell of cells) if (cell.move !== null && !legal.has(cell.move) && geometry.whyIllegal(state, cell.move) !== null) explained++;
      return cells.length + explained;
    };
    for (let i = 0; i < 200; i++) redraw();
    const start = performance.now();
    let runs = 0;
    while (performance.now() - start < 400) {
      redraw();
      runs++;
    }
    const ms = (performance.now() - start) / runs;
    console.log(`${id.padEnd(14)} ${String(geometry.cells(state).length).padStart(4)} cells: ${ms.toFixed(3)} ms a redraw (${Math.round(1000 / ms)} redraws/s)`);
  }
}

/** The Go-board pictures (NoGo, Gomoku): stones on the edge lines leave the coordinates readable. */
import { expect, test } from '@jest/globals';
import { getGame } from '../../harness/games/registry.js';

test.each(['nogo', 'gomoku'])('%s: row-1 stones stay clear of the column letters, column-A stones of the row numbers', (id) => {
  const game = getGame(id);
  let state = game.initial(1);
  for (const move of ['A1', 'B1']) state = game.apply(state, game.parseMove(move));
  const svg = game.renderSvg(state);
  const stone = /<circle data-square="A1"[^>]* cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/.exec(svg);
  expect(stone).not.toBeNull();
  const [cx, cy, r] = stone!.slice(1).map(Number);
  const letter = /<text x="([\d.]+)" y="([\d.]+)" font-size="10"[^>]*>A<\/text>/.exec(svg);
  const number = /<text x="([\d.]+)" y="([\d.]+)" font-size="10"[^>]*>1<\/text>/.exec(svg);
  // A 10-px glyph rises about 8 px above its baseline and spreads about 4 px each side of its anchor.
  expect(Number(letter![2]) - 8).toBeGreaterThan(cy + r);
  expect(Number(number![1]) + 4).toBeLessThan(cx - r);
});

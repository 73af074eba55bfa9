/** The Go-board pictures (NoGo, Gomoku): stones on the edge lines leave the coordinates readable. */
import { expect, test } from '@jest/globals';
import { XMLParser } from 'fast-xml-parser';
import { getGame } from '../../harness/games/registry.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

test.each(['nogo', 'gomoku'])('%s: row-1 stones stay clear of the column letters, column-A stones of the row numbers', (id) => {
  const game = getGame(id);
  let state = game.initial(1);
  for (const move of ['A1', 'B1']) state = game.apply(state, game.parseMove(move));
  // The stone's place from the game's geometry; the labels' from the picture (read as XML: they are not geometry).
  const stone = game.geometry!.cells(state).find((cell) => cell.name === 'A1')!;
  expect(stone.piece).toBe('X');
  const texts = (parser.parse(game.renderSvg(state)) as { svg: { text: { x: string; y: string; 'font-size': string; '#text': string | number }[] } }).svg.text;
  const label = (text: string) => texts.find((each) => String(each['#text']) === text && each['font-size'] === '10')!;
  const [letter, number] = [label('A'), label('1')];
  // A 10-px glyph rises about 8 px above its baseline and spreads about 4 px each side of its anchor.
  expect(Number(letter.y) - 8).toBeGreaterThan(stone.y + stone.r);
  expect(Number(number.x) + 4).toBeLessThan(stone.x - stone.r);
});

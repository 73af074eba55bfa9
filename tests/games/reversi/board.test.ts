import { jest } from '@jest/globals';
import { Board, reversi } from '../../../harness/games/reversi/index.js';

describe('the student Board mirrors board.py', () => {
  test('board_num / num_board / is_on_board', () => {
    const b = new Board();
    expect(b.boardNum('D3')).toEqual([2, 3]);
    expect(b.board_num('d3')).toEqual([2, 3]); // board.py upper-cases
    expect(b.boardNum('Z9')).toBeUndefined();
    expect(b.numBoard([2, 3])).toBe('D3');
    expect(b.num_board([8, 0])).toBeUndefined();
    expect(b.isOnBoard(7, 7)).toBe(true);
    expect(b.is_on_board(8, 0)).toBe(false);
  });

  test('_move returns the flipped squares and backpropagation undoes it', () => {
    const b = new Board();
    const before = Board.fingerprint(b);
    const flipped = b._move('D3', 'X');
    expect(flipped).toEqual(['D4']);
    expect(b.get(2, 3)).toBe('X');
    expect(b.count('X')).toBe(4);
    expect(Board.fingerprint(b)).not.toBe(before);
    b.backpropagation('D3', flipped as string[], 'X');
    expect(Board.fingerprint(b)).toBe(before);
  });

  test('move accepts [row, col]; an illegal or occupied square returns false and changes nothing', () => {
    const b = new Board();
    expect(b.move([2, 3], 'X')).toEqual(['D4']);
    const fp = Board.fingerprint(b);
    expect(b.move('A1', 'O')).toBe(false);
    expect(b.move('D3', 'O')).toBe(false);
    expect(b.move('Q7', 'O')).toBe(false);
    expect(Board.fingerprint(b)).toBe(fp);
  });

  test('copy is independent; rows is a copy', () => {
    const b = new Board();
    const c = b.copy();
    c._move('D3', 'X');
    expect(b.count('X')).toBe(2);
    b.rows[0][0] = 'X';
    expect(b.get(0, 0)).toBe('.');
    expect(b._board).toEqual(b.rows);
  });

  test('get_winner and count', () => {
    const b = new Board();
    expect(b.getWinner()).toEqual([2, 0]);
    b._move('D3', 'X');
    expect(b.get_winner()).toEqual([0, 3]);
  });

  test('bad colours and bad squares give one-line errors', () => {
    const b = new Board();
    expect(() => b.getLegalActions('B' as 'X')).toThrow(/color must be 'X' \(Black\) or 'O' \(White\)/);
    expect(() => b.get(9, 0)).toThrow(/off the board/);
    expect(() => b.undo('ZZ', [], 'X')).toThrow(/not a square/);
  });

  test('fingerprint cannot be fooled by an object that merely looks like a Board', () => {
    const fake = Object.create(Board.prototype) as Board;
    expect(Board.fingerprint(fake)).toBe('not-a-board');
    expect(Board.fingerprint(null)).toBe('not-a-board');
    const real = reversi.studentBoard.create(reversi.initial());
    expect(reversi.studentBoard.fingerprint(real)).toBe(Board.fingerprint(new Board()));
  });

  test('display prints the board like board.py', () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    new Board().display();
    expect(log.mock.calls[0][0]).toContain('4 . . . O X . . .');
    log.mockRestore();
  });
});

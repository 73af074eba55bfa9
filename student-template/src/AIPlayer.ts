/**
 * Your Reversi AI. The grader creates one AIPlayer per game with your colour, then calls getMove(board) on each
 * of your turns and plays the move you return. This starter is legal but weak: it plays a random legal move.
 * Replace getMove with something smarter (see README.md for the rules, the limits and how you are graded).
 */
import { moveInfo, type Board } from 'board-referee';

type Color = 'X' | 'O';

export class AIPlayer {
  private readonly color: Color;

  /** color: 'X' is Black and moves first, 'O' is White. */
  constructor(color: Color) {
    this.color = color;
  }

  /**
   * Return your move as a square name such as 'D3' (column letter A–H, row number 1–8), exactly as
   * board.getLegalActions gives it. You are only asked when you have a legal move (otherwise you pass).
   *
   * The Board API (the same as the course platform's board.py):
   *   board.getLegalActions(color)      → string[]  legal moves for 'X' or 'O', e.g. ['D3', 'C4', 'F5', 'E6']
   *   board._move(action, color)        → string[] | false  plays a move, returns the flipped squares
   *   board.backpropagation(action, flipped, color)          undoes a _move (pass what _move returned)
   *   board.count(color)                → number    discs of that colour
   *   board.getWinner()                 → [winner, diff]  winner 0 = Black, 1 = White, 2 = draw
   *   board.get(row, col)               → 'X' | 'O' | '.'  (row and col from 0)
   *   board.copy()                      → Board     an independent copy to search on
   *   board.display()                               prints the board (debugging; output appears in the report)
   *
   * Never change the board you are given: search on board.copy(). Changing it loses the game. (It is the same
   * Board object every turn, kept up to date by the grader, as on the platform.)
   * moveInfo() gives your limits while getMove runs: timeLimitMs is your time per ask and turnTimeLimitMs per turn
   * (answer well within them); moveNumber, timeUsedMs and lastMove (the opponent's last move) help you budget.
   */
  getMove(board: Board): string {
    void moveInfo()?.timeLimitMs;
    const moves = board.getLegalActions(this.color);
    return moves[Math.floor(Math.random() * moves.length)];
  }
}

/**
 * Your __TITLE__ AI. The grader creates one AIPlayer per game with your colour, then calls getMove(board) on
 * each of your turns and plays the move you return. This starter is legal but weak: it plays a random legal move.
 * Replace getMove with something smarter (RULES.md has the rules, the notation and the whole Board API).
 */
import { moveInfo, type __BOARD__ as Board } from 'board-referee';

type Color = '__X__' | '__O__';

export class AIPlayer {
  private readonly color: Color;

  /** color: '__X__' moves first, '__O__' second. */
  constructor(color: Color) {
    this.color = color;
  }

  /**
   * Return your move exactly as board.getLegalActions(color) spells it. The Board holds the position:
   *   board.getLegalActions(color)   → string[]  your legal moves
   *   board.copy()                   → Board     an independent copy to search on
   *   board.display()                            prints the board (debugging; output appears in the report)
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

/** The small Reversi assignment the ladder tests run: two reference opponents and a rank rubric for the final. */
export const LADDER_ASSIGNMENT = {
  title: 'Ladder test',
  game: 'reversi',
  moveTimeoutMs: 3000,
  constructTimeoutMs: 5000,
  opponents: [
    { name: 'random', games: 2, points: 10 },
    { name: 'greedy', games: 2, points: 10 },
  ],
  tournament: { title: 'Ladder rank', points: 20, scoring: { rule: 'rank', fullPercentile: 0, zeroPercentile: 1 } },
};

export { connect4AlphaBetaAgent, connect4HeuristicAgent, heuristicMove } from './agents.js';
export { centreFirst, evaluateConnect4 } from './evaluate.js';

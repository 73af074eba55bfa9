export { heuristicMove, nogoAlphaBetaAgent, nogoHeuristicAgent } from './agents.js';
export { evaluateNoGo, mobility } from './evaluate.js';

export { gomokuAlphaBetaAgent, gomokuHeuristicAgent, heuristicMove } from './agents.js';
export { candidateMoves, evaluateGomoku, moveValue, rankedCandidates, stoneValue } from './patterns.js';

/** The referee's public API: play one game or a series, record it, replay it. */
export type { Agent, AgentFactory } from './agent.js';
export {
  DEFAULT_REFEREE_CONFIG,
  configForGame,
  gameRulesFor,
  resolveConfig,
  type GameRules,
  type RefereeConfig,
} from './config.js';
export { explainEnd } from './explain.js';
export { describeValue, PREVIEW_CAP, type ValuePreview, type ValueType } from './describe-value.js';
export { InProcessPlayer } from './in-process.js';
export { findLegalMove } from './legal-move.js';
export { playGame, type PlayGameOptions } from './match.js';
export type { CapturedOutput, GameStart, MoveInfo, MoveRequest, PlayedMove, Player, PlayerAnswer } from './player.js';
export {
  ILLEGAL_REASONS,
  RECORD_FORMAT,
  RecordShapeError,
  validateRecordShape,
  type ForfeitRecord,
  type GameEnd,
  type GameRecord,
  type IllegalAttempt,
  type IllegalReason,
  type StartRecord,
  type TurnRecord,
} from './record.js';
export { replayRecord, type GameLookup, type ReplayResult } from './replay.js';
export { createRng, deriveSeed, mix32, type Rng } from './seed.js';
export {
  formatSeriesReport,
  playSeries,
  sideOfA,
  summarizeSeries,
  type PlaySeriesOptions,
  type PlayerTally,
  type SeriesMeta,
  type SeriesResult,
  type WinDrawLoss,
} from './series.js';
export {
  END_REASONS,
  LOSS_VERDICTS,
  VERDICT_DESCRIPTIONS,
  describeFailure,
  isEndReason,
  isLossVerdict,
  verdictOfAnswer,
  type EndReason,
  type FailureAnswer,
  type LossVerdict,
} from './verdict.js';

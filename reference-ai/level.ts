/** One rung of a game's reference ladder: a named, described agent factory. */
import type { AgentFactory } from '../harness/referee/agent.js';

export interface ReferenceLevel {
  readonly name: string;
  /** One line for `--help` listings and reports. */
  readonly description: string;
  readonly factory: AgentFactory;
  /** Seconds of CPU per game: fine for a ladder or a chosen rubric, too slow for a built-in assignment. */
  readonly heavy?: boolean;
}

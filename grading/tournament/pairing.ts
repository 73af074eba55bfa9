/**
 * Who meets whom: round-robin (the circle method, so a round is a set of disjoint pairings), gauntlet (every
 * challenger against each of a fixed set) and Swiss (score groups, no repeat pairing, colour balance, rotating
 * byes). A pairing is one "meeting"; the runner turns it into games (each opening twice, colours swapped).
 * Players are indexes; pure functions only.
 */

/** One meeting; `a` is Black (the first side) in the meeting's first game. */
export interface Pairing {
  a: number;
  b: number;
}

export interface Round {
  pairings: Pairing[];
  /** The player sitting out this round (Swiss or an odd round-robin), if any. */
  bye: number | null;
}

/** Round-robin by the circle method: n−1 rounds (n rounds for odd n, one bye each), every pair exactly once. */
export function roundRobin(players: number): Round[] {
  if (players < 2) return [];
  const ids = Array.from({ length: players }, (_, i) => i);
  if (players % 2 === 1) ids.push(-1);
  const n = ids.length;
  const rounds: Round[] = [];
  for (let r = 0; r < n - 1; r++) {
    const pairings: Pairing[] = [];
    let bye: number | null = null;
    for (let k = 0; k < n / 2; k++) {
      const x = ids[k];
      const y = ids[n - 1 - k];
      if (x === -1 || y === -1) {
        bye = x === -1 ? y : x;
        continue;
      }
      // Alternate who is listed first so each player leads about half its meetings.
      pairings.push((r + k) % 2 === 0 ? { a: x, b: y } : { a: y, b: x });
    }
    rounds.push({ pairings, bye });
    // Rotate all but the first.
    ids.splice(1, 0, ids.pop()!);
  }
  return rounds;
}

/**
 * Gauntlet: every challenger against every fixed opponent, grouped into rounds in which no player meets twice
 * (round r pairs challenger c with fixed opponent (c + r) mod F).
 */
export function gauntlet(challengers: readonly number[], fixed: readonly number[]): Round[] {
  const rounds: Round[] = [];
  for (let r = 0; r < fixed.length; r++) {
    rounds.push({ pairings: challengers.map((c, i) => ({ a: c, b: fixed[(i + r) % fixed.length] })), bye: null });
  }
  return rounds;
}

export interface SwissStanding {
  player: number;
  /** Points so far (tie-break order: the caller's order, e.g. seeding). */
  score: number;
  /** Games as the first side minus games as the second side so far. */
  colourBalance: number;
  /** Whether the player already had a bye. */
  hadBye: boolean;
}

/** The Swiss pairing could not avoid a repeat: too many rounds for the field. */
export class SwissPairingError extends Error {
  override name = 'SwissPairingError';
}

/**
 * One Swiss round. Players are ordered by score (ties keep the given order); with an odd count the lowest-ranked
 * player who has not had a bye sits out. Then the top unpaired player is paired with the nearest player below who
 * is not a previous opponent, backtracking when the rest cannot be completed. Colour: the one with the lower colour
 * balance leads (is `a`, Black in the first game); when both are due the same colour and an alternative exists,
 * the search prefers the alternative (it only gives in when every completion would need it).
 */
export function swissRound(standings: readonly SwissStanding[], met: ReadonlySet<string>): Round {
  const order = standings
    .map((standing, position) => ({ standing, position }))
    .sort((x, y) => y.standing.score - x.standing.score || x.position - y.position)
    .map(({ standing }) => standing);
  // With an odd field someone sits out: the lowest-ranked player without a bye first; if the rest cannot be paired
  // without a repeat, the next candidate (players who had a bye come last).
  const byeCandidates: (SwissStanding | null)[] =
    order.length % 2 === 0 ? [null] : [...[...order].reverse().filter((s) => !s.hadBye), ...[...order].reverse().filter((s) => s.hadBye)];
  const clash = (x: SwissStanding, y: SwissStanding): boolean =>
    (x.colourBalance > 0 && y.colourBalance > 0) || (x.colourBalance < 0 && y.colourBalance < 0);
  let budget = 0;
  const search = (remaining: SwissStanding[], allowClash: boolean): [SwissStanding, SwissStanding][] | null => {
    if (remaining.length === 0) return [];
    if (--budget < 0) return null;
    const [top, ...rest] = remaining;
    for (let i = 0; i < rest.length; i++) {
      const other = rest[i];
      if (met.has(meetingKey(top.player, other.player))) continue;
      if (!allowClash && clash(top, other)) continue;
      const tail = search([...rest.slice(0, i), ...rest.slice(i + 1)], allowClash);
      if (tail) return [[top, other], ...tail];
    }
    return null;
  };
  let found: [SwissStanding, SwissStanding][] | null = null;
  let bye: number | null = null;
  for (const allowClash of [false, true]) {
    for (const candidate of byeCandidates) {
      budget = 200_000;
      found = search(order.filter((s) => s !== candidate), allowClash);
      if (found) {
        bye = candidate?.player ?? null;
        break;
      }
    }
    if (found) break;
  }
  if (!found) throw new SwissPairingError('no Swiss pairing avoids a repeat meeting: use fewer --rounds than players');
  const pairings = found.map(([x, y]) => (x.colourBalance <= y.colourBalance ? { a: x.player, b: y.player } : { a: y.player, b: x.player }));
  return { pairings, bye };
}

export const meetingKey = (x: number, y: number): string => (x < y ? `${x}-${y}` : `${y}-${x}`);

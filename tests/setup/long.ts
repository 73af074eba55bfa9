/**
 * Long simulations run at full size only when asked: `npm run test:long` (REFEREE_TEST_LONG=1), which .ci/run
 * runs after `npm test`. `npm test` plays a smaller seeded sample of the same checks, so every behaviour keeps a
 * test there; the long run adds the rare positions a bigger sample reaches.
 */
export const LONG = process.env.REFEREE_TEST_LONG === '1';

/** `quick` in npm test, `full` under npm run test:long. */
export function sized(quick: number, full: number): number {
  return LONG ? full : quick;
}

/** The seed helpers live with the games (a seeded layout needs them, and folders import downwards only). */
export { createRng, deriveSeed, mix32, type Rng } from '../games/common/seed.js';

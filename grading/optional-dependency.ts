/**
 * The instructor-side packages a student install leaves out. `board-referee` declares them as optional peer
 * dependencies, so a starter's `npm install` pulls only what check, grade, play and serve need (no native
 * compile, no Redis client); the class batch, tournaments, `--watch` and the queue load them when asked and, when
 * they are missing, say in one line what to install.
 */

/** Each optional package with the range Referee is tested with (package.json's peerDependencies). */
export const OPTIONAL_PACKAGES = {
  'better-sqlite3': '^12.11.1',
  bullmq: '^6.7.0',
  ioredis: '^6.0.0',
  openskill: '^5.0.1',
  '@dodona/dolos-lib': '~3.5.1',
} as const;

export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** What each feature needs beyond a student install. */
export const FEATURE_NEEDS: Record<string, OptionalPackage[]> = {
  batch: ['better-sqlite3', 'bullmq', 'ioredis'],
  tournament: ['better-sqlite3', 'bullmq', 'ioredis'],
  worker: ['bullmq', 'ioredis'],
  '--queue': ['bullmq', 'ioredis'],
  '--watch': ['better-sqlite3'],
  ladder: ['better-sqlite3', 'openskill'],
  'source similarity': ['@dodona/dolos-lib'],
};

/** A feature's optional packages are not installed: the message is the one-line fix. */
export class MissingDependencyError extends Error {
  override name = 'MissingDependencyError';
}

export function installCommand(packages: readonly OptionalPackage[]): string {
  return `npm install ${packages.map((name) => `${name}@${OPTIONAL_PACKAGES[name]}`).join(' ')}`;
}

export function missingMessage(feature: string, packages: readonly OptionalPackage[]): string {
  return `${feature} needs ${packages.join(', ')}, left out of a student install: run \`${installCommand(packages)}\` (in the project that has board-referee, or with -g beside a global install)`;
}

/** The optional package an import failed on, if that is why it failed. */
export function missingOptional(error: unknown): OptionalPackage | null {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return null;
  for (const name of Object.keys(OPTIONAL_PACKAGES) as OptionalPackage[]) {
    if (message?.includes(`'${name}'`)) return name;
  }
  return null;
}

/** `load()` (a dynamic import of a module that uses the feature's packages), or the one-line fix if any is missing. */
export async function importFor<T>(feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (missingOptional(error)) throw new MissingDependencyError(missingMessage(feature, FEATURE_NEEDS[feature] ?? [missingOptional(error)!]));
    throw error;
  }
}

/**
 * The portable code path: what runs on Windows and macOS, where none of the Linux layers exist. Players start as
 * plain child processes (no /bin/sh, no rlimits, no bubblewrap, cgroups, seccomp, Landlock or namespaces), nothing
 * reads /proc, and players are never frozen between turns (Windows has no SIGSTOP): Node's permission model and
 * the V8 heap ceiling are what is left, which guards against accidents, not attacks. REFEREE_PORTABLE=1 forces
 * the same path on Linux, so CI runs every student command through it.
 */
export function portable(): boolean {
  return process.platform !== 'linux' || process.env.REFEREE_PORTABLE === '1';
}

/** Why the portable path is taken, for the one warning that says what is not isolated. */
export function portableReason(): string {
  return process.platform === 'linux' ? 'REFEREE_PORTABLE=1 (the Windows/macOS code path on Linux)' : `on ${process.platform}`;
}

/**
 * A player's CPU figures summed over every thread it ever had, ended ones included, from the kernel's taskstats
 * interface (native/taskstats.c, loaded into the grader). /proc keeps a thread's waits only while it lives, so a
 * player whose work runs in short-lived threads (game.py's func_timeout: a thread per call) would be credited less
 * than it waited. taskstats needs CAP_NET_ADMIN in the first network namespace (a root grader outside a container);
 * elsewhere it is missing and the reader falls back to what /proc shows (SchedulingReader).
 */
import { constants } from 'node:os';
import { taskstatsLibrary } from './native-tools.js';
import { portable } from './portable.js';

interface TaskstatsModule {
  group(tgid: number): [number, number] | number;
}

/** The loaded module; null once it is known to be missing or refused (no compiler, no privilege, no family). */
let loaded: TaskstatsModule | null | undefined;
/** Why taskstats is not used, once known. */
let missing: string | null = null;

function load(): TaskstatsModule | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.env.REFEREE_NO_TASKSTATS === '1') {
    missing = 'switched off (REFEREE_NO_TASKSTATS=1)';
    return null;
  }
  if (process.platform !== 'linux' || portable()) return null;
  const { path: taskstats, problem } = taskstatsLibrary();
  if (!taskstats) {
    missing = problem;
    return null;
  }
  try {
    const module = { exports: {} } as NodeJS.Module;
    process.dlopen(module, taskstats);
    const found = module.exports as Partial<TaskstatsModule>;
    if (typeof found.group === 'function') loaded = found as TaskstatsModule;
  } catch (error) {
    missing = (error as Error).message.slice(0, 200);
  }
  return loaded;
}

const REFUSED = new Set([-constants.errno.EPERM, -constants.errno.EACCES, -constants.errno.ENOENT, -constants.errno.EPROTONOSUPPORT, -constants.errno.EAFNOSUPPORT, -constants.errno.EOPNOTSUPP]);

/**
 * Time waited runnable for a CPU and time run (ms) by the process `pid`, summed over all its threads, living and
 * ended; null where taskstats cannot say (missing, refused, or the process is gone).
 */
export function threadGroupCpu(pid: number): { waitedMs: number; ranMs: number } | null {
  const module = load();
  if (!module) return null;
  const answer = module.group(pid);
  if (Array.isArray(answer)) return { waitedMs: answer[0] / 1e6, ranMs: answer[1] / 1e6 };
  // Refused for good (no CAP_NET_ADMIN; a network namespace without the family): stop asking.
  if (REFUSED.has(answer)) {
    loaded = null;
    missing = `taskstats refused (errno ${-answer})`;
  }
  return null;
}

/** Whether taskstats is in use, or why not (for doctor and the tests' controls). */
export function taskstatsState(): string {
  return threadGroupCpu(process.pid) ? 'on' : `missing: ${missing ?? 'not available here'}`;
}

/**
 * The run-time import boundary of the node child host, installed after the host has taken what it needs and
 * before the submission loads. The compile step refuses imports by name, but at run time node offers other
 * doors to its built-ins; each is closed here so the only way in is the host's own `require` (which answers
 * `referee` and the assignment's allowlist):
 *   - Module._load (behind require, module.require, module.constructor._load, process.mainModule.require,
 *     require.main.require and Module.createRequire(...)): refuses built-ins and files the assignment does not allow;
 *   - Module.createRequire: a require bound to the submission is as good as the host's, so it is the guarded one;
 *   - process.getBuiltinModule: the same allowlist;
 *   - process.binding, process._linkedBinding, process.dlopen: refused (internal bindings such as spawn_sync,
 *     native addons);
 *   - process.mainModule: hidden;
 *   - process.kill / process._kill: only the player's own process;
 *   - fetch (and its helpers): refused with a clear message, not undici's "WebAssembly Out of memory" under the
 *     address-space rlimit.
 *   - every route to compiling a string, whose `import()` would reach the ESM loader (which loads built-ins without
 *     asking Module._load): Module.prototype._compile (behind `new module.constructor(p)._compile(text, p)`,
 *     Module.prototype.load and Module._extensions), Module.register (loader hooks, data: URLs) and Module.runMain
 *     are refused once the host has compiled the submission with the original _compile.
 * Dynamic `import()` in the submission itself is rewritten to require by the compiler (supported: dynamic-import
 * false) and eval/new Function are off (--disallow-code-generation-from-strings).
 * These are speed bumps in the same process as the student, like the Python audit hook: the permission model,
 * seccomp and bubblewrap around the process are the walls.
 */
import Module from 'node:module';

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;

function refused(what: string): Error {
  const error = new Error(`${what} is not allowed in this sandbox`);
  error.name = 'PermissionError';
  return error;
}

/** Whether `name` (with or without node:) is on the allowlist. */
function allowedBy(allowed: ReadonlySet<string>, name: string): boolean {
  return allowed.has(name) || allowed.has(name.replace(/^node:/, ''));
}

type Compile = (this: unknown, source: string, filename: string) => unknown;

/** What the host keeps for itself: the guarded require it gives the submission, and the original compile. */
export interface Boundary {
  require(name: string): unknown;
  /** Module.prototype._compile as it was, for the host's one compile of the submission's bundle. */
  compile(module: Module, source: string, filename: string): unknown;
}

/**
 * Close the doors. `allowed`: the bare imports the assignment allows. Returns the guarded require the host
 * gives the submission's module (it answers `referee` itself first) and the compile only the host may use.
 */
export function installBoundary(allowed: ReadonlySet<string>): Boundary {
  const ModuleClass = Module as unknown as { _load: Loader; createRequire: typeof Module.createRequire };
  const prototype = Module.prototype as unknown as { _compile: Compile };
  const originalCompile = prototype._compile;
  const closed = (what: string) => (): never => {
    throw refused(`${what} (compiling code at run time)`);
  };
  Object.defineProperty(Module.prototype, '_compile', { value: closed('Module.prototype._compile'), writable: false, configurable: false });
  for (const name of ['register', 'runMain']) {
    Object.defineProperty(Module, name, { value: closed(`Module.${name}`), writable: false, configurable: false });
  }
  const originalLoad = ModuleClass._load.bind(Module);
  const guardedLoad: Loader = (request, parent, isMain) => {
    if (typeof request !== 'string' || !allowedBy(allowed, request)) {
      const error = new Error(`import of '${String(request)}' is not allowed in this assignment`);
      error.name = 'PermissionError';
      throw error;
    }
    return originalLoad(request, parent, isMain);
  };
  Object.defineProperty(Module, '_load', { value: guardedLoad, writable: false, configurable: false });
  const guardedRequire = (name: string): unknown => guardedLoad(name, null, false);
  Object.defineProperty(Module, 'createRequire', {
    value: () => Object.assign((name: string) => guardedRequire(name), { resolve: () => { throw refused('require.resolve'); }, cache: {} }),
    writable: false,
    configurable: false,
  });

  const proc = process as unknown as Record<string, unknown>;
  const getBuiltin = proc.getBuiltinModule as ((id: string) => unknown) | undefined;
  const lock = (name: string, value: unknown): void => {
    Object.defineProperty(process, name, { value, writable: false, configurable: false, enumerable: false });
  };
  lock('getBuiltinModule', (id: string) => {
    if (!getBuiltin || !allowedBy(allowed, String(id))) throw refused(`process.getBuiltinModule('${String(id)}')`);
    return getBuiltin.call(process, id);
  });
  for (const name of ['binding', '_linkedBinding', 'dlopen']) {
    lock(name, () => {
      throw refused(`process.${name}`);
    });
  }
  lock('mainModule', undefined);
  // process.kill calls process._kill at call time: both check the target, so only the player itself is signalled.
  const ownPid = process.pid;
  const kill = process.kill.bind(process);
  const rawKill = (proc._kill as (pid: number, signal: number) => number).bind(process);
  const ownOnly = (pid: unknown): void => {
    if (pid !== ownPid && pid !== 0) throw refused(`sending a signal to process ${String(pid)}`);
  };
  lock('_kill', (pid: number, signal: number) => {
    ownOnly(pid);
    return rawKill(pid, signal);
  });
  lock('kill', (pid: number, signal?: string | number) => {
    ownOnly(pid);
    return kill(pid, signal);
  });
  const noNetwork = (): never => {
    throw refused('fetch (submissions have no network)');
  };
  for (const name of ['fetch', 'WebSocket', 'EventSource']) {
    if (!(name in globalThis)) continue;
    // Deleted first: redefining Node 22's lazy WebSocket in place loads undici, whose WebAssembly parser then
    // fails under the address-space rlimit as an unhandled rejection (the unchanged TS starter crashed on 22.23).
    delete (globalThis as Record<string, unknown>)[name];
    Object.defineProperty(globalThis, name, { value: noNetwork, writable: false, configurable: false });
  }
  return { require: guardedRequire, compile: (module, source, filename) => originalCompile.call(module, source, filename) };
}

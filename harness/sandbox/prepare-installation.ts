/**
 * Build what the sandbox compiles for itself — the C++ host (g++) and the native tools (cc) — into the installation's
 * prebuilt folder (prebuilt.ts), once per version of their sources: run by `npm run build` and by the package's
 * postinstall (scripts/prepare-installation.mjs), so a student's first check after `npm install` compiles only the
 * student's own code (issue #35). Outside the sandbox, like the cache's builds: it is the project's own code, built
 * by the user who installs it.
 */
import { buildCppHostInto } from './cpp-runtime.js';
import { buildNativeFoldersInto } from './native-tools.js';
import { openPrebuiltDir, prebuiltDir, prunePrebuilt } from './prebuilt.js';

/** What was built (or why not), one line each; throws nothing (an install never fails for it). */
export function prepareInstallation(): string[] {
  if (process.platform !== 'linux') return [`nothing to build ahead on ${process.platform}`];
  const dir = openPrebuiltDir();
  if (!dir) return [prebuiltDir() ? `cannot write ${prebuiltDir()}: the first check builds what it needs` : 'switched off (REFEREE_NO_PREBUILT=1)'];
  const native = buildNativeFoldersInto(dir);
  const host = buildCppHostInto(dir);
  prunePrebuilt(dir, [...native.built, ...(host.built ? [host.built] : [])]);
  return [
    native.problem ? `sandbox tools not built ahead: ${native.problem}` : `sandbox tools built ahead: ${native.built.join(', ')}`,
    host.problem ? `C++ host not built ahead: ${host.problem}` : `C++ host built ahead: ${host.built}`,
  ].map((line) => `${line} (${dir})`);
}

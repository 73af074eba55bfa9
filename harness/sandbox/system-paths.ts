/**
 * The one list of system paths a sandboxed player may read: the runtime folders (bound read-only by bubblewrap,
 * and the paths a filesystem layer such as Landlock allows), plus the symlinks shared libraries are reached
 * through outside them. Debian's BLAS and LAPACK (which numpy loads) are reached as
 * /usr/lib/x86_64-linux-gnu/libblas.so.3 → /etc/alternatives/libblas.so.3-x86_64-linux-gnu → /usr/lib/…/blas/…:
 * the middle link lives in /etc, which the sandbox does not show. Each such link is recreated inside the sandbox
 * as the same symlink (bubblewrap --symlink), so nothing of /etc is shown and no file outside these folders is.
 */
import { readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/** Folders of the runtime, read-only inside the sandbox (those that exist on this machine). */
export const SYSTEM_READ_DIRS = ['/usr', '/lib', '/lib64', '/lib32', '/bin'] as const;

const ALTERNATIVES = '/etc/alternatives';
/** A shared library's name: libblas.so.3-x86_64-linux-gnu, libfoo.so. */
const LIBRARY_NAME = /\.so(\.|-|$)/;

export interface SystemLink {
  /** The symlink's own path (e.g. /etc/alternatives/libblas.so.3-x86_64-linux-gnu). */
  path: string;
  /** What it points at, as written in the link. */
  target: string;
}

let links: SystemLink[] | undefined;

function insideSystemDirs(path: string): boolean {
  return SYSTEM_READ_DIRS.some((dir) => path === dir || path.startsWith(`${dir}/`));
}

/**
 * The alternatives symlinks of shared libraries whose final target lies in the system folders, found once per
 * process. Empty on systems without /etc/alternatives.
 */
export function systemLibraryLinks(): SystemLink[] {
  if (links) return links;
  links = [];
  let names: string[];
  try {
    names = readdirSync(ALTERNATIVES);
  } catch {
    return links;
  }
  for (const name of names.sort()) {
    if (!LIBRARY_NAME.test(name)) continue;
    const path = join(ALTERNATIVES, name);
    try {
      const target = readlinkSync(path);
      if (insideSystemDirs(realpathSync(path))) links.push({ path, target });
    } catch {
      // a dangling alternative: nothing to show
    }
  }
  return links;
}

/*
 * Loaded into the grader's own node process (process.dlopen) before its first sandboxed child starts: it makes the
 * grader non-dumpable, so a child running as the same user cannot ptrace it or open its /proc/<pid>/mem, environ
 * or fds (the kernel then treats the grader's /proc entries as root's). Shaped as a Node-API module that exports
 * nothing, so the load succeeds without node's headers.
 */
#include <sys/prctl.h>

__attribute__((constructor)) static void make_grader_non_dumpable(void) { prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

void *napi_register_module_v1(void *env, void *exports) {
  (void)env;
  return exports;
}

int node_api_module_get_api_version_v1(void) { return 8; }

"""
Installs the Landlock ruleset the parent described (harness/sandbox/confinement.ts, the same description the node
launcher native/landlock-launch.c is given) on the host process itself through ctypes, before any student code
runs and only without bubblewrap. Like the seccomp filter it cannot be removed and binds every thread: reads only
below `read`, writes only below `write`, no TCP bind or connect (ABI >= 4), no signals to or abstract unix sockets
of processes outside the sandbox (ABI >= 6).

install() returns what held ('abi7 net scope' style) or 'missing: why'; never raises: the parent records a
refused layer as missing.
"""
import ctypes
import errno
import os
import stat

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # the same on x86_64 and aarch64
PR_SET_NO_NEW_PRIVS = 38
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_TRUNCATE, FS_IOCTL_DEV = 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1 << 0, 1 << 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = [('handled_access_fs', ctypes.c_uint64), ('handled_access_net', ctypes.c_uint64), ('scoped', ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [('allowed_access', ctypes.c_uint64), ('parent_fd', ctypes.c_int32)]


def _fs_rights(abi):
    rights = (1 << 13) - 1  # ABI 1: EXECUTE .. MAKE_SYM
    if abi >= 2:
        rights |= 1 << 13  # REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    if abi >= 5:
        rights |= FS_IOCTL_DEV
    return rights


def _problem(code):
    if code == errno.ENOSYS:
        return 'the kernel has no Landlock (Linux >= 5.13 with CONFIG_SECURITY_LANDLOCK)'
    if code == errno.EOPNOTSUPP:
        return 'Landlock is built in but turned off (add landlock to the lsm= boot parameter)'
    if code == errno.EPERM:
        return "a seccomp profile (e.g. Docker's default) refuses the Landlock system calls"
    return 'landlock_create_ruleset failed: errno %d' % code


def _libc():
    """glibc by its soname: find_library starts `ldconfig -p` (a process at every player start), so only elsewhere (musl)."""
    try:
        return ctypes.CDLL('libc.so.6', use_errno=True)
    except OSError:
        from ctypes.util import find_library
        return ctypes.CDLL(find_library('c'), use_errno=True)


def install(rules):
    if not rules:
        return None  # bubblewrap confines this player: nothing asked
    try:
        libc = _libc()
        syscall = libc.syscall
        syscall.restype = ctypes.c_long
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return 'missing: prctl(PR_SET_NO_NEW_PRIVS) failed: errno %d' % ctypes.get_errno()
        if rules.get('refuse'):
            return 'missing: %s (REFEREE_SANDBOX_NO_LANDLOCK=1)' % _problem(errno.ENOSYS)
        abi = syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
        if abi <= 0:
            return 'missing: %s' % _problem(ctypes.get_errno())
        fs = _fs_rights(abi)
        file_only = fs & (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)
        attr = _RulesetAttr(fs, NET_BIND_TCP | NET_CONNECT_TCP if rules.get('noTcp') and abi >= 4 else 0,
                            SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL if rules.get('scope') and abi >= 6 else 0)
        ruleset = syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), ctypes.c_uint32(0))
        if ruleset < 0:
            return 'missing: Landlock refused the ruleset: errno %d' % ctypes.get_errno()
        try:
            wanted = [(path, FS_EXECUTE | FS_READ_FILE | FS_READ_DIR) for path in rules.get('read', [])]
            wanted += [(path, fs) for path in rules.get('write', [])]
            for path, access in wanted:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue  # a path this machine does not have: nothing to allow
                try:
                    rule = _PathBeneath(access & (fs if stat.S_ISDIR(os.fstat(fd).st_mode) else file_only), fd)
                    if syscall(SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
                        return 'missing: Landlock refused %s: errno %d' % (path, ctypes.get_errno())
                finally:
                    os.close(fd)
            if syscall(SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
                return 'missing: landlock_restrict_self failed: errno %d' % ctypes.get_errno()
        finally:
            os.close(ruleset)
        return 'abi%d%s%s' % (abi, ' net' if attr.handled_access_net else '', ' scope' if attr.scoped else '')
    except (OSError, AttributeError, TypeError, ValueError) as error:
        return 'missing: ctypes could not reach the Landlock system calls: %s' % error

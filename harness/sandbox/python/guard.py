"""
The Python host's in-process layer, installed with sys.addaudithook before the submission loads (a hook cannot
be removed once added). It refuses sockets, subprocesses, os.system, ctypes, signals to other processes, reading
files outside the allowed folders and writing files outside the sandbox's tmp, each with a PermissionError that
says what was refused.

Audit hooks are not a sandbox on their own (PEP 578 says so): code in the same interpreter can get around them.
They turn honest mistakes and casual attempts into clear errors; the OS layers around the process (bubblewrap,
cgroups, rlimits, the parent's kill at the deadline) are what contain the rest.
"""
import os
import sys

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC

# Events refused outright: what the submission tried, in words.
_REFUSED = {
    'socket.__new__': 'opening a socket (submissions have no network)',
    'socket.connect': 'opening a connection (submissions have no network)',
    'socket.bind': 'binding a socket (submissions have no network)',
    'socket.getaddrinfo': 'looking up a host (submissions have no network)',
    'socket.gethostbyname': 'looking up a host (submissions have no network)',
    'subprocess.Popen': 'starting a process',
    'os.system': 'os.system (starting a process)',
    'os.exec': 'exec (replacing the process)',
    'os.posix_spawn': 'starting a process',
    'os.spawn': 'starting a process',
    'os.fork': 'os.fork (starting a process)',
    'os.forkpty': 'os.forkpty (starting a process)',
    'os.startfile': 'starting a program',
    'gc.get_objects': "gc.get_objects (reaching the host's objects)",
    'gc.get_referrers': "gc.get_referrers (reaching the host's objects)",
    'gc.get_referents': "gc.get_referents (reaching the host's objects)",
}
_REFUSED_MODULES = {'ctypes', '_ctypes'}
# Events whose first argument (and for some the second) is a path that is changed.
_WRITES = {
    'os.remove': 1, 'os.rmdir': 1, 'os.mkdir': 1, 'os.chmod': 1, 'os.chown': 1, 'os.truncate': 1, 'os.utime': 1,
    'os.chflags': 1, 'os.lchflags': 1, 'os.mkfifo': 1, 'os.mknod': 1, 'os.rename': 2, 'os.link': 2,
    'os.symlink': 2, 'shutil.copyfile': 2, 'shutil.copymode': 2, 'shutil.copystat': 2, 'shutil.copytree': 2,
    'shutil.move': 2, 'shutil.rmtree': 1, 'shutil.chown': 1,
}
_LISTINGS = {'os.listdir', 'os.scandir'}


def install(readable, writable):
    """
    Refuse from now on. `readable`: folders whose files may be read (the interpreter's, the host's, the
    submission's); `writable`: the one folder files may be written in, or None (no writes at all).
    """
    realpath = os.path.realpath
    sep = os.sep
    own = (0, os.getpid(), os.getpgrp())
    fsdecode = os.fsdecode
    readable_roots = tuple(realpath(path) for path in readable if path)
    writable_root = realpath(writable) if writable else None
    refused = dict(_REFUSED)
    refused_modules = frozenset(_REFUSED_MODULES)
    writes = dict(_WRITES)
    listings = frozenset(_LISTINGS)

    def inside(path, root):
        return path == root or path.startswith(root if root.endswith(sep) else root + sep)

    def resolved(path):
        if isinstance(path, int) or path is None:
            return None
        return realpath(fsdecode(path))

    def refuse(what):
        raise PermissionError('the sandbox refuses %s' % what)

    def check_write(path):
        target = resolved(path)
        if target is None:
            return
        if writable_root is None or not inside(target, writable_root):
            where = 'only in %s' % writable_root if writable_root else 'nowhere in this sandbox'
            refuse('writing %s: a submission may write files %s' % (target, where))

    def check_read(path):
        target = resolved(path)
        if target is None:
            return
        for root in readable_roots:
            if inside(target, root):
                return
        if writable_root is not None and inside(target, writable_root):
            return
        refuse('reading %s: a submission may read only its own folder' % target)

    def hook(event, args):
        if event == 'open':
            path, mode, flags = args
            if (flags or 0) & _WRITE_FLAGS or (mode and any(c in mode for c in 'wax+')):
                check_write(path)
            else:
                check_read(path)
        elif event in refused:
            refuse(refused[event])
        elif event == 'import':
            if args[0] in refused_modules:
                refuse('importing %s (ctypes reaches past every check)' % args[0])
        elif event.startswith('ctypes.') or event.startswith('socket.'):
            refuse('%s' % event)
        elif event in writes:
            for path in args[:writes[event]]:
                check_write(path)
        elif event in listings:
            check_read(args[0] if args and args[0] is not None else '.')
        elif event in ('os.kill', 'os.killpg', 'signal.pthread_kill'):
            target = args[0]
            if event != 'signal.pthread_kill' and target not in own:
                refuse('sending a signal to process %s' % target)

    sys.addaudithook(hook)

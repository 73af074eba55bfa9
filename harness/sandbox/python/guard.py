"""
The Python host's in-process layer, installed with sys.addaudithook before the submission loads (a hook cannot
be removed once added). It refuses sockets, subprocesses, os.system, ctypes, signals to other processes, reading
files outside the allowed folders and writing files outside the sandbox's tmp, each with a PermissionError that
says what was refused.

Audit hooks are not a sandbox on their own (PEP 578 says so): code in the same interpreter can get around them.
They turn honest mistakes and casual attempts into clear errors; the OS layers around the process (bubblewrap,
cgroups, rlimits, the parent's kill at the deadline) are what contain the rest.

Two rules keep the hook from becoming the way in:
- It never runs submission code. An event's arguments may be the submission's own objects (io.FileIO(obj) and
  os.remove(obj) pass the object the call was given, not the path it turned into), so the hook looks only at the
  exact built-in types str, bytes and int, copies str/bytes subclasses to plain values without calling their
  methods, and refuses any other path object instead of asking it for a path (its __fspath__ could answer
  differently the second time, or walk up to the hook's frame). Paths are resolved by its own realpath over
  os.lstat/os.readlink bound at install: posixpath.realpath looks up os.lstat and friends at call time, which a
  submission can replace. Every builtin it uses is bound at install, never looked up when an event arrives.
- It is cheap: Python calls the hook for every audited event, builtins.id included (copy.deepcopy calls id() once
  per object), so the hook does one dict lookup and returns for every event it does not judge.
"""
import os
import sys

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_SYMLINK_HOPS = 40  # as the kernel's limit on symlinks followed in one lookup

# Events refused outright: what the submission tried, in words.
_REFUSED = {
    'socket.__new__': 'opening a socket (submissions have no network)',
    'socket.connect': 'opening a connection (submissions have no network)',
    'socket.bind': 'binding a socket (submissions have no network)',
    'socket.getaddrinfo': 'looking up a host (submissions have no network)',
    'socket.gethostbyname': 'looking up a host (submissions have no network)',
    'socket.gethostbyaddr': 'looking up a host (submissions have no network)',
    'socket.getnameinfo': 'looking up a host (submissions have no network)',
    'socket.sendto': 'sending on a socket (submissions have no network)',
    'socket.sethostname': 'setting the host name',
    'subprocess.Popen': 'starting a process',
    'os.system': 'os.system (starting a process)',
    'os.exec': 'exec (replacing the process)',
    'os.posix_spawn': 'starting a process',
    'os.spawn': 'starting a process',
    'os.fork': 'os.fork (starting a process)',
    'os.forkpty': 'os.forkpty (starting a process)',
    'os.startfile': 'starting a program',
    'pty.spawn': 'starting a process',
    'gc.get_objects': "gc.get_objects (reaching the host's objects)",
    'gc.get_referrers': "gc.get_referrers (reaching the host's objects)",
    'gc.get_referents': "gc.get_referents (reaching the host's objects)",
    'ctypes.dlopen': 'ctypes (it reaches past every check)',
    'ctypes.dlsym': 'ctypes (it reaches past every check)',
    'ctypes.dlsym/handle': 'ctypes (it reaches past every check)',
    'ctypes.addressof': 'ctypes (it reaches past every check)',
    'ctypes.call_function': 'ctypes (it reaches past every check)',
    'ctypes.cdata': 'ctypes (it reaches past every check)',
    'ctypes.cdata/buffer': 'ctypes (it reaches past every check)',
    'ctypes.create_string_buffer': 'ctypes (it reaches past every check)',
    'ctypes.create_unicode_buffer': 'ctypes (it reaches past every check)',
    'ctypes.get_errno': 'ctypes (it reaches past every check)',
    'ctypes.set_errno': 'ctypes (it reaches past every check)',
    'ctypes.string_at': 'ctypes (it reaches past every check)',
    'ctypes.wstring_at': 'ctypes (it reaches past every check)',
    'ctypes.seh_exception': 'ctypes (it reaches past every check)',
    'ctypes.PyObj_FromPtr': 'ctypes (it reaches past every check)',
}
_REFUSED_MODULES = ('ctypes', '_ctypes')
# Events whose first argument (and for some the second) is a path that is changed.
_WRITES = {
    'os.remove': 1, 'os.rmdir': 1, 'os.mkdir': 1, 'os.chmod': 1, 'os.chown': 1, 'os.truncate': 1, 'os.utime': 1,
    'os.chflags': 1, 'os.lchflags': 1, 'os.mkfifo': 1, 'os.mknod': 1, 'os.rename': 2, 'os.link': 2,
    'os.symlink': 2, 'shutil.copyfile': 2, 'shutil.copymode': 2, 'shutil.copystat': 2, 'shutil.copytree': 2,
    'shutil.move': 2, 'shutil.rmtree': 1, 'shutil.chown': 1, 'os.setxattr': 1, 'os.removexattr': 1,
}
_LISTINGS = ('os.listdir', 'os.scandir', 'os.listxattr', 'os.getxattr')
_SIGNALS = ('os.kill', 'os.killpg')


def install(readable, writable):
    """
    Refuse from now on. `readable`: folders whose files may be read (the interpreter's, the host's, the
    submission's); `writable`: the one folder files may be written in, or None (no writes at all).
    """
    # Everything the hook touches, bound now: C functions and methods of exact built-in types, which no
    # submission can replace or subclass its way into.
    lstat = os.lstat
    readlink = os.readlink
    getcwd = os.getcwd
    fsdecode_bytes = bytes.decode
    encoding = sys.getfilesystemencoding()
    errors = sys.getfilesystemencodeerrors()
    str_slice = str.__getitem__
    bytes_slice = bytes.__getitem__
    whole = slice(None)
    split = str.split
    join = str.join
    startswith = str.startswith
    kind_of = type
    name_of = type.__dict__['__name__'].__get__  # a metaclass cannot answer for it
    is_subclass = issubclass
    length = len
    refused_modules = _REFUSED_MODULES
    str_type, bytes_type, int_type, none_type, bool_type = str, bytes, int, type(None), bool
    link_mode, mode_mask = 0o120000, 0o170000
    sep = '/'
    own = (0, os.getpid(), os.getpgrp())

    denied = PermissionError

    def refuse(what):
        raise denied('the sandbox refuses %s' % what)

    def plain_path(value):
        """The path an argument names as a plain str, None for a file descriptor or no path; refuses others."""
        kind = kind_of(value)
        if kind is str_type:
            return value
        if kind is int_type or kind is bool_type or kind is none_type:
            return None
        if kind is bytes_type:
            return fsdecode_bytes(value, encoding, errors)
        # Subclasses of str/bytes are copied through the base type's own slot (no method of theirs runs).
        if is_subclass(kind, str_type):
            return str_slice(value, whole)
        if is_subclass(kind, bytes_type):
            return fsdecode_bytes(bytes_slice(value, whole), encoding, errors)
        if is_subclass(kind, int_type):
            return None
        refuse('a path given as a %s object: pass str(path) instead' % name_of(kind))

    def realpath(path):
        """Symlinks resolved, '.' and '..' applied, as the kernel would walk the path."""
        if not startswith(path, sep):
            path = getcwd() + sep + path
        pending = split(path, sep)
        pending.reverse()
        done = []
        hops = 0
        while pending:
            part = pending.pop()
            if part == '' or part == '.':
                continue
            if part == '..':
                if done:
                    done.pop()
                continue
            done.append(part)
            candidate = sep + join(sep, done)
            try:
                mode = lstat(candidate).st_mode
            except OSError:
                continue  # a missing component: the rest is taken as written, as posixpath.realpath does
            if mode & mode_mask != link_mode:
                continue
            hops += 1
            if hops > _SYMLINK_HOPS:
                refuse('a path with a symlink loop')
            target = readlink(candidate)
            done.pop()
            if startswith(target, sep):
                done = []
            parts = split(target, sep)
            parts.reverse()
            pending.extend(parts)
        return sep + join(sep, done)

    readable_roots = tuple(realpath(os.path.abspath(path)) for path in readable if path)
    writable_root = realpath(os.path.abspath(writable)) if writable else None

    def inside(path, root):
        return path == root or startswith(path, root if root == sep else root + sep)

    def check_write(argument):
        path = plain_path(argument)
        if path is None:
            return
        target = realpath(path)
        if writable_root is None or not inside(target, writable_root):
            where = 'only in %s' % writable_root if writable_root else 'nowhere in this sandbox'
            refuse('writing %s: a submission may write files %s' % (target, where))

    def check_read(argument):
        path = plain_path(argument)
        if path is None:
            return
        target = realpath(path)
        for root in readable_roots:
            if inside(target, root):
                return
        if writable_root is not None and inside(target, writable_root):
            return
        refuse('reading %s: a submission may read only its own folder' % target)

    def on_open(args):
        path, mode, flags = args
        writes = kind_of(flags) is int_type and flags & _WRITE_FLAGS
        if not writes and kind_of(mode) is str_type:
            for letter in 'wax+':
                if letter in mode:
                    writes = True
                    break
        if writes:
            check_write(path)
        else:
            check_read(path)

    def on_import(args):
        name = plain_path(args[0])
        if name in refused_modules:
            refuse('importing %s (ctypes reaches past every check)' % name)

    def on_signal(args):
        target = args[0]
        if kind_of(target) is not int_type or target not in own:
            refuse('sending a signal to process %s' % (target if kind_of(target) is int_type else '?'))

    def refusing(what):
        return lambda args: refuse(what)

    def writing(count):
        indices = tuple(range(count))

        def check(args):
            for index in indices:
                if index < length(args):
                    check_write(args[index])
        return check

    def listing(args):
        check_read(args[0] if length(args) and args[0] is not None else '.')

    judges = {'open': on_open, 'import': on_import}
    for event, what in _REFUSED.items():
        judges[event] = refusing(what)
    for event, count in _WRITES.items():
        judges[event] = writing(count)
    for event in _LISTINGS:
        judges[event] = listing
    for event in _SIGNALS:
        judges[event] = on_signal
    judge_of = judges.get

    def hook(event, args):
        judge = judge_of(event)
        if judge is not None:
            judge(args)

    sys.addaudithook(hook)

"""
Referee's Python host: runs inside the sandboxed process (`python3 -I -B -u host.py '<config JSON>'`), loads one
submission's AIPlayer and answers the parent's requests. It speaks the node host's protocol: one JSON line per
message, requests on fd 3, answers on fd 4, so print() cannot corrupt the channel (see ../protocol.ts).

Python >= 3.8, standard library only. Before any student code runs, the host registers the game's `board` module
and `func_timeout` under those names (a student's own copy of board.py is not used: the grader's Board is the
one handed to get_move), and installs the audit hook in guard.py. Nothing here is trusted by the parent: it
validates every line and keeps every clock itself. Nothing here is meant to be reachable by the submission either
(`__main__` is replaced; what it may hold is in exposed.py); see the sandbox README for the frame-walking limit.
"""
import importlib
import importlib.util
import json
import os
import random
import re
import reprlib
import sys
import threading
import traceback

REQUEST_FD = 3
ANSWER_FD = 4
HERE = os.path.dirname(os.path.abspath(__file__))
HOST_FILE = os.path.abspath(__file__)
# Folders of a submission that hold no code of it (as the grader's resolve step skips them).
SKIPPED_FOLDERS = frozenset(('node_modules', '.git', '__pycache__', '.venv', 'venv', 'referee-report'))
# func_timeout's submodules in the PyPI package, for `from func_timeout.exceptions import FunctionTimedOut`.
TIMEOUT_ALIASES = ('func_timeout.exceptions', 'func_timeout.dafunc', 'func_timeout.StoppableThread')

# Bound now: a submission may replace builtins or module attributes, which then breaks only its own answers.
# The channel's JSON is the C encoder and scanner themselves: json.dumps and json.loads look up module globals
# (json._default_encoder, ...) on every call, which a submission could replace to rewrite the host's answers.
try:
    from _json import encode_basestring_ascii as _c_encode_string, make_encoder as _c_make_encoder

    def _no_default(value):
        raise TypeError('not JSON: %s' % type(value).__name__)

    _encode = _c_make_encoder(None, _no_default, _c_encode_string, None, ': ', ', ', False, False, True)
    _join = ''.join

    def _dumps(message, _encode=_encode, _join=_join):
        return _join(_encode(message, 0))
except ImportError:  # an interpreter without the C accelerator
    _dumps = json.dumps
_scan = json.JSONDecoder().scan_once  # the C scanner (strict, int and float bound when it was made)


def _loads(text, _scan=_scan):
    return _scan(text, 0)[0]


_write = os.write
_read = os.read
_type = type
_str = str
_issubclass = issubclass
_exit = os._exit
_kill, _pid, _SIGSTOP = os.kill, os.getpid(), 19  # SIGSTOP on every Linux architecture the sandbox supports
_repr = reprlib.Repr()
_repr.maxstring = 200
_repr.maxother = 200
_repr.maxlist = _repr.maxtuple = _repr.maxset = _repr.maxdict = 12
sys.path.insert(0, HERE)
from conventions import LiveBoard, call_get_move, call_plan  # noqa: E402  (the host's own folder)
from exposed import MoveInfo, thread_excepthook_for  # noqa: E402  (what the submission may hold: see exposed.py)
from move_thread import MoveThread  # noqa: E402
del sys.path[0]
del sys.modules['conventions']
del sys.modules['exposed']
del sys.modules['move_thread']
# The host's own files, left out of the tracebacks a student reads.
ROOT_PREFIX = None  # the submission folder with its trailing separator, set by main()
HOST_FILES = frozenset(os.path.join(HERE, name) for name in os.listdir(HERE) if name.endswith('.py'))


class Host(object):
    def __init__(self, config):
        self.config = config
        self.game = config['game']
        self.symbols = config['symbols']
        self.board_module = None
        self.count_leftover = None
        self.timed_out = None  # func_timeout's FunctionTimedOut, bound before the submission runs
        self.live = None
        self.plan_for = None
        self.plan = None
        self.player_class = None
        self.player = None
        self.current = None
        self.mover = MoveThread()

    # --- the channel -------------------------------------------------------------------------------------------

    def send(self, message):
        data = (_dumps(message) + '\n').encode('ascii')
        while data:
            data = data[_write(ANSWER_FD, data):]

    def answer(self, request_id, message):
        if self.current != request_id:
            return
        self.current = None
        message['id'] = request_id
        self.send(message)
        if self.config.get('stopAfterAnswer'):
            _kill(_pid, _SIGSTOP)  # no student thread runs on after its answer: the parent's next request wakes us

    def serve(self):
        pending = b''
        while True:
            chunk = _read(REQUEST_FD, 65536)
            if not chunk:
                _exit(0)  # the parent closed the channel: the series is over
            pending += chunk
            while b'\n' in pending:
                line, pending = pending.split(b'\n', 1)
                self.handle(_loads(line.decode('utf-8')))

    def handle(self, request):
        request_id = request['id']
        self.current = request_id
        kind = request['t']
        try:
            if kind == 'load':
                self.load(request_id)
            elif kind == 'start':
                self.start(request_id, request['side'], request.get('randomSeed'))
            else:
                self.move(request_id, request['state'], request['info'], request.get('played'))
        except SystemExit as stop:
            code = stop.code
            if code is not None and _type(code) is not int:
                sys.stderr.write('%s\n' % (code,))
                code = 1
            _exit(code or 0)
        except MemoryError as error:
            self.answer(request_id, {'t': 'memory', 'message': 'MemoryError: %s' % (describe(error) or 'out of memory')})
        except BaseException as error:
            self.answer(request_id, error_answer(error))

    # --- requests ----------------------------------------------------------------------------------------------

    def load(self, request_id):
        entry = self.config['entry']
        name = os.path.splitext(os.path.basename(entry))[0]
        if name.isidentifier() and name not in sys.modules:
            module = importlib.import_module(name)
        else:
            spec = importlib.util.spec_from_file_location('__submission__', entry)
            module = importlib.util.module_from_spec(spec)
            sys.modules['__submission__'] = module
            spec.loader.exec_module(module)
        names = []
        for key, value in list(vars(module).items()):
            if key.startswith('_') or not callable(value):
                continue
            if getattr(value, '__module__', None) == module.__name__:
                names.append(key[:200])
        entry_name = None
        candidate = vars(module).get('AIPlayer')
        if candidate is not None and callable(candidate):
            entry_name = 'AIPlayer'
            self.player_class = candidate
        self.answer(request_id, {'t': 'loaded', 'exports': names[:50], 'entry': entry_name})

    def start(self, request_id, side, random_seed=None):
        if self.player_class is None:
            raise RuntimeError('the submission has no AIPlayer class to construct')
        self.player = None
        self.live.reset()
        if random_seed is not None:
            # Reproducible grades (config.seedPlayerRandom): the random module, and numpy's if the submission
            # imported it, replay the same stream for the same game seed.
            random.seed(random_seed)
            numpy = sys.modules.get('numpy')
            if numpy is not None:
                numpy.random.seed(random_seed)
        player = self.player_class(self.symbols[side])
        # game.py's Game.__init__ sets each player's colour after constructing it, over whatever it set itself.
        player.color = self.symbols[side]
        self.player = player
        self.answer(request_id, {'t': 'ready'})

    def move(self, request_id, state, info, played=None):
        if self.player is None:
            raise RuntimeError('get_move was asked before the player was constructed')
        get_move = getattr(self.player, 'get_move', None)
        if get_move is None or not callable(get_move):
            raise AttributeError('AIPlayer has no get_move method: add def get_move(self, board): ...')
        # A new turn brings the live board up to date; a retry in the same turn hands the very same board again.
        if info.get('attempt') == 1 or self.live.board is None:
            self.live.begin_turn(state, played)
        # The calling plan is read from the signature once per function (inspect costs tens of microseconds).
        function = getattr(get_move, '__func__', get_move)
        if function is not self.plan_for:
            self.plan_for, self.plan = function, call_plan(get_move)
        # Called from a thread that is not the main one, as the platform's func_timeout does (signal.signal fails).
        plan, board = self.plan, self.live.board
        try:
            value = self.mover.call(lambda: call_get_move(get_move, plan, board, lambda: MoveInfo(info)))
            message = carry(value)
        except (self.timed_out, SystemExit) as error:
            # game.py calls get_move through func_timeout, which hands back None when the call ended in a
            # FunctionTimedOut (the student's own func_timeout that fired and was not caught) or in SystemExit
            # (sys.exit(), exit() inside get_move ends only func_timeout's thread): game.py then asks again, as for
            # any illegal answer, and the third loses. The referee does the same with this None.
            message = {'standIn': {'type': 'NoneType', 'text': 'None (get_move raised %s, which func_timeout in game.py turns into None)' % _type(error).__name__[:80]}}
        if self.live.changed():
            message['t'] = 'tamper'
            message['detail'] = 'the board differs from how it was before this turn (game.py compares board._board after the turn)'
        else:
            message['t'] = 'move'
        leftover = self.leftover_threads()
        if leftover:
            message['leftoverThreads'] = leftover
        self.answer(request_id, message)

    def leftover_threads(self):
        """Threads of timed-out func_timeout calls still alive (the package keeps stopping them until they die)."""
        try:
            return min(int(self.count_leftover()), 100000)
        except BaseException:
            return 0


def describe(error):
    try:
        return _str(error)
    except BaseException:
        return '<unprintable %s>' % _type(error).__name__


def carry(value):
    """A string travels as itself (a str subclass as the plain string it holds); anything else as its repr."""
    kind = _type(value)
    if _issubclass(kind, _str):
        return {'value': _str.__str__(value)[:1000]}
    try:
        text = _repr.repr(value)
    except BaseException:
        text = '<unprintable %s>' % kind.__name__
    return {'standIn': {'type': _str(kind.__name__)[:20], 'text': _str(text)[:1000]}}


def error_answer(error):
    """The error as `Type: message` and a traceback without the host's own frames, most recent call last."""
    message = '%s: %s' % (_type(error).__name__, describe(error))
    if _type(error).__name__ == 'ModuleNotFoundError' and getattr(error, 'name', None):
        if error.name.split('.')[0] == 'numpy':
            message = ("ModuleNotFoundError: No module named 'numpy': the grader's python3 (%s) has no numpy; install it "
                       "there (Debian/Ubuntu: apt-get install python3-numpy) or set REFEREE_PYTHON to a python3 that has it"
                       % sys.executable)
        else:
            message = "ModuleNotFoundError: No module named '%s' (only the standard library, numpy, board, game and func_timeout are available)" % error.name
    stack = None
    where = None
    try:
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename not in HOST_FILES]
        for frame in frames:  # the student's files as they named them, not by the private staged folder
            if ROOT_PREFIX and frame.filename.startswith(ROOT_PREFIX):
                frame.filename = frame.filename[len(ROOT_PREFIX):]
        lines = ['Traceback (most recent call last):\n'] + traceback.format_list(frames)
        lines += traceback.format_exception_only(_type(error), error)
        stack = ''.join(lines)[-8000:]
        # The last line of the student's own files (not numpy's or copy's): where the report says it was raised.
        own = [frame for frame in frames if ROOT_PREFIX and not frame.filename.startswith('/') and frame.lineno]
        if own:
            where = {'file': str(own[-1].filename)[:300], 'line': int(own[-1].lineno), 'function': str(own[-1].name)[:200]}
    except BaseException:
        pass
    answer = {'t': 'error', 'message': message[:2000]}
    if stack:
        answer['stack'] = stack
    if where:
        answer['where'] = where
    return answer


def load_file(name, file_name):
    """A module of this folder by path, registered in sys.modules under `name`."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file_name))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def preload_packages(packages, root):
    """
    Import now, before the audit hook, the allowed packages (numpy) that the submission's files import: numpy loads
    ctypes and its shared libraries while importing, which the hook refuses to student code. Only packages the
    files mention are loaded (numpy costs ~100 ms a start); one that is missing is left for the submission's own
    import to report.
    """
    if not packages:
        return
    wanted = re.compile(r'^\s*(?:import|from)\s+(%s)\b' % '|'.join(re.escape(name) for name in packages), re.M)
    found = set()
    seen = 0
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in SKIPPED_FOLDERS]
        for name in files:
            if not name.endswith('.py'):
                continue
            seen += 1
            if seen > 500:
                break
            try:
                with open(os.path.join(folder, name), encoding='utf-8', errors='replace') as handle:
                    found.update(wanted.findall(handle.read(1 << 20)))
            except OSError:
                pass
    for name in sorted(found):
        try:
            importlib.import_module(name)
        except Exception:
            pass


def main():
    config = json.loads(sys.argv[1])
    host = Host(config)
    # The parent stages each game's board (harness/games/<game>/board.py) here as board_<game id>.py.
    board_file = 'board_%s.py' % config['game']
    if not re.match(r'^[a-z0-9-]+$', config['game']) or not os.path.isfile(os.path.join(HERE, board_file)):
        raise SystemExit("referee's Python host has no board for game '%s'" % config['game'])
    host.board_module = load_file('board', board_file)
    host.live = LiveBoard(host.board_module, config['game'], config['symbols'])
    timeout_module = load_file('func_timeout', 'func_timeout.py')
    host.count_leftover = timeout_module._leftover_threads  # bound before the submission can replace it
    host.timed_out = timeout_module.FunctionTimedOut
    for alias in TIMEOUT_ALIASES:
        sys.modules[alias] = timeout_module
    load_file('game', 'game.py')  # the notebook's game.py, for submissions that import it (after board, func_timeout)
    preload_packages(config.get('packages') or (), config['root'])
    # Without bubblewrap, Landlock first: files, TCP, signals and abstract sockets (python/landlock.py).
    landlock = load_file('referee_landlock', 'landlock.py').install(config.get('landlock'))
    del sys.modules['referee_landlock']
    # Below the language: the kernel refuses fork, process clones and exec from here on (python/seccomp.py).
    seccomp = load_file('referee_seccomp', 'seccomp.py').install(config.get('seccomp'))
    del sys.modules['referee_seccomp']
    # copy.deepcopy of lists without one audit event per element (see deepcopy_lists.py).
    load_file('referee_deepcopy_lists', 'deepcopy_lists.py').install()
    del sys.modules['referee_deepcopy_lists']
    guard = load_file('referee_guard', 'guard.py')
    # func_timeout holds the one ctypes function it needs; the modules go, so `import ctypes` is asked afresh.
    for name in [name for name in sys.modules if name == 'ctypes' or name.startswith('ctypes.') or name == '_ctypes']:
        del sys.modules[name]
    del sys.modules['referee_guard']

    entry_dir = os.path.dirname(config['entry'])
    root = config['root']
    global ROOT_PREFIX
    ROOT_PREFIX = root.rstrip(os.sep) + os.sep
    sys.path[:0] = [entry_dir] if entry_dir == root else [entry_dir, root]
    sys.dont_write_bytecode = True
    os.chdir(root)
    threading.excepthook = thread_excepthook_for(root)
    # `import __main__` would hand the submission this module (its Host, its live board, its tamper check).
    sys.modules['__main__'] = type(sys)('__main__')
    readable = [HERE, root, '/dev', sys.prefix, sys.base_prefix, sys.exec_prefix] + [p for p in sys.path if p]
    guard.install(readable, config.get('tmp'))
    host.send({'t': 'hello', 'seccomp': seccomp[:300], 'landlock': (landlock or 'not asked')[:300]})
    host.serve()


if __name__ == '__main__':
    main()

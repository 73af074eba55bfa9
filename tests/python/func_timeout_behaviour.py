"""
Checks the bundled func_timeout against the documented behaviour of the PyPI package func_timeout 4.3.5 (its
README and docstrings): prints one JSON object of observations for tests/python/func-timeout.test.ts.

Usage: python3 -I func_timeout_behaviour.py <harness/sandbox/python>
"""
import json
import sys
import threading
import time

sys.path.insert(0, sys.argv[1])
import func_timeout as package  # noqa: E402
from func_timeout import FunctionTimedOut, func_set_timeout, func_timeout  # noqa: E402

seen = {}


def observe(name, call):
    try:
        seen[name] = {'returned': repr(call())}
    except BaseException as error:  # noqa: B902 - recording whatever escapes
        seen[name] = {'raised': type(error).__name__, 'message': str(error)}
    return seen[name]


# A call that finishes in time returns its value; its thread is gone afterwards.
observe('returns', lambda: func_timeout(1, lambda a, b=0: a + b, args=(1,), kwargs={'b': 2}))
seen['threads_after_return'] = sum(1 for t in threading.enumerate() if t.name != 'MainThread')

# An Exception inside is re-raised in the caller, the same object.
boom = ValueError('boom')


def raises():
    raise boom


try:
    func_timeout(1, raises)
except ValueError as error:
    seen['same_exception_object'] = error is boom


# SystemExit (a BaseException, not an Exception) ends only the call's thread: func_timeout returns None.
def exits():
    raise SystemExit(3)


observe('system_exit', lambda: func_timeout(1, exits))


# The FunctionTimedOut the caller gets: attributes and message form.
def search(a, b, k=None):
    while True:
        time.sleep(0.005)


try:
    func_timeout(0.05, search, args=(1, 2), kwargs={'k': 3})
except FunctionTimedOut as error:
    seen['timed_out'] = {
        'type': type(error).__name__,
        'is_base_exception_only': not isinstance(error, Exception),
        'timedOutAfter': error.timedOutAfter,
        'function': error.timedOutFunction.__name__,
        'args': list(error.timedOutArgs),
        'kwargs': error.timedOutKwargs,
        'msg': error.msg,
        'str': str(error),
        'getMsg': error.getMsg(),
    }
seen['default_message'] = FunctionTimedOut().msg

# A search that swallows the first stop keeps running until the package raises again (every 2 s), then dies.
caught = []


def stubborn():
    try:
        while True:
            pass
    except BaseException as error:  # noqa: B902 - the student's catch-all
        caught.append((type(error).__name__, isinstance(error, FunctionTimedOut), type(error) is FunctionTimedOut,
                       getattr(error, 'timedOutAfter', None)))
    while True:
        time.sleep(0.01)


try:
    func_timeout(0.05, stubborn)
except FunctionTimedOut:
    pass
seen['leftover_right_after'] = package._leftover_threads()
deadline = time.time() + 10
while package._leftover_threads() and time.time() < deadline:
    time.sleep(0.05)
seen['leftover_later'] = package._leftover_threads()
seen['stop_exceptions_caught'] = [list(entry) for entry in caught]

# retry(None) runs again without a limit; retry(t) with a new limit.
try:
    func_timeout(0.02, lambda: time.sleep(0.2) or 'late')
except FunctionTimedOut as error:
    seen['retry_unlimited'] = error.retry(None)


# The decorator: a fixed limit, a limit computed from the arguments, and forceTimeout with allowOverride.
@func_set_timeout(0.05)
def slow(seconds):
    time.sleep(seconds)
    return 'done'


observe('decorated_fast', lambda: slow(0))
observe('decorated_slow', lambda: slow(0.5))


@func_set_timeout(lambda seconds: seconds * 4)
def scaled(seconds):
    time.sleep(seconds)
    return 'scaled'


observe('decorated_computed', lambda: scaled(0.02))


@func_set_timeout(0.01, allowOverride=True)
def overridable(seconds):
    time.sleep(seconds)
    return 'overridden'


observe('decorated_override', lambda: overridable(0.05, forceTimeout=1))
observe('bad_timeout', lambda: func_set_timeout('soon'))
seen['names'] = sorted(n for n in ('func_timeout', 'func_set_timeout', 'FunctionTimedOut', 'StoppableThread',
                                   'RETRY_SAME_TIMEOUT') if hasattr(package, n))
print(json.dumps(seen))

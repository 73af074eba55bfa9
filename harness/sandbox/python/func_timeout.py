"""
`func_timeout` for submissions written for the course platform, which import it. Referee's own implementation of
the public names and documented behaviour of the PyPI package func_timeout 4.3.5 (func_timeout,
func_set_timeout, FunctionTimedOut, StoppableThread, JoinThread, RETRY_SAME_TIMEOUT); none of its code.

What callers rely on, and tests/python/func-timeout.test.ts pins:
- the function runs in a daemon thread while the caller waits up to `timeout` seconds;
- a value comes back as is; an Exception raised inside is raised again in the caller (the same object); a
  BaseException that is not an Exception (SystemExit) ends only that thread, and the call returns None;
- out of time: an exception type made for this call (a FunctionTimedOut subclass, "FunctionTimedOut<n>") is
  raised inside the thread at once and again every 2 s until the thread ends, so a search that catches everything
  is still stopped; the caller gets FunctionTimedOut('', timeout, func, args, kwargs) after a short grace.

A thread inside one long C call (sum(range(10**12))) sees the exception only when that call returns; the sandbox
still ends such a move at its deadline by killing the process. `_leftover_threads()` is the host's, not the
package's: how many timed-out calls are still running (written into the move's record).
"""
import itertools
import threading

__all__ = ('func_timeout', 'func_set_timeout', 'FunctionTimedOut', 'StoppableThread', 'JoinThread')

RETRY_SAME_TIMEOUT = 'RETRY_SAME_TIMEOUT'
_REPEAT_SECONDS = 2.0


def _async_raiser():
    """
    raise_in(thread_id, exception_type) through CPython's PyThreadState_SetAsyncExc, or None without ctypes. Made
    while the host starts, before ctypes is refused to the submission.
    """
    try:
        import ctypes
    except Exception:
        return None
    set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    set_async.argtypes = (ctypes.c_ulong, ctypes.py_object)
    set_async.restype = ctypes.c_int

    def raise_in(thread_id, exception_type):
        if set_async(thread_id, exception_type) > 1:  # more than one thread state touched: undo
            set_async(thread_id, None)

    return raise_in


_raise_in = _async_raiser()
_abandoned_threads = []
_numbers = itertools.count(1)


def _leftover_threads():
    """How many threads of timed-out calls are still alive."""
    _abandoned_threads[:] = [thread for thread in _abandoned_threads if thread.is_alive()]
    return len(_abandoned_threads)


class FunctionTimedOut(BaseException):
    """
    A call through func_timeout ran out of time. Carries timedOutAfter (seconds), timedOutFunction, timedOutArgs,
    timedOutKwargs and msg; retry() calls the function again.
    """

    def __init__(self, msg='', timedOutAfter=None, timedOutFunction=None, timedOutArgs=None, timedOutKwargs=None):
        self.timedOutAfter = timedOutAfter
        self.timedOutFunction = timedOutFunction
        self.timedOutArgs = timedOutArgs
        self.timedOutKwargs = timedOutKwargs
        self.msg = msg or self.getMsg()
        BaseException.__init__(self, self.msg)

    def getMsg(self):
        """The package's message form: 'Function f (args=(1,)) (kwargs={}) timed out after 0.500000 seconds.\\n'."""
        function = self.timedOutFunction
        name = function.__name__ if function is not None else 'Unknown Function'
        seconds = 'Unknown' if self.timedOutAfter is None else '%f' % self.timedOutAfter
        return 'Function {0} (args={1!r}) (kwargs={2!r}) timed out after {3} seconds.\n'.format(
            name, self.timedOutArgs, self.timedOutKwargs, seconds)

    def retry(self, timeout=RETRY_SAME_TIMEOUT):
        """Run the function again: with no limit (None), the same limit (the default), or a new one."""
        if timeout is None:
            return self.timedOutFunction(*self.timedOutArgs, **self.timedOutKwargs)
        limit = self.timedOutAfter if timeout == RETRY_SAME_TIMEOUT else timeout
        return func_timeout(limit, self.timedOutFunction, args=self.timedOutArgs, kwargs=self.timedOutKwargs)


class JoinThread(threading.Thread):
    """Raises `exception` in `otherThread` now and every `repeatEvery` seconds while that thread lives."""

    def __init__(self, otherThread, exception, repeatEvery=_REPEAT_SECONDS):
        threading.Thread.__init__(self, daemon=True)
        self.otherThread = otherThread
        self.exception = exception
        self.repeatEvery = repeatEvery

    def run(self):
        target = self.otherThread
        while target.is_alive():
            if _raise_in is not None:
                _raise_in(target.ident, self.exception)
            target.join(self.repeatEvery)


class StoppableThread(threading.Thread):
    """A thread another thread can stop by raising an exception type inside it (repeated until it ends)."""

    def stop(self, exception, raiseEvery=_REPEAT_SECONDS):
        if not self.is_alive():
            return True
        JoinThread(self, exception, raiseEvery).start()
        return None

    _stopThread = stop  # the package's internal name, which some code calls


class _Outcome(object):
    """What the call's thread leaves for the caller: a value or an Exception (nothing after a BaseException)."""

    def __init__(self):
        self.value = None
        self.error = None
        self.abandoned = False

    def run(self, func, args, kwargs):
        try:
            self.value = func(*args, **kwargs)
        except FunctionTimedOut:
            pass  # this call's own stop, or a nested call's: nothing to hand back
        except Exception as error:
            if not self.abandoned:
                self.error = error


def _stop_type(timeout, func, args, kwargs):
    """An exception type for one call: raised inside its thread with no arguments, it still says what timed out."""

    def __init__(self):
        FunctionTimedOut.__init__(self, '', timeout, func, args, kwargs)

    return type('FunctionTimedOut%d' % next(_numbers), (FunctionTimedOut,), {'__init__': __init__})


def func_timeout(timeout, func, args=(), kwargs=None):
    """
    func(*args, **kwargs) with at most `timeout` seconds: its value (None when it ended with a BaseException such
    as SystemExit), the Exception it raised, or FunctionTimedOut when the time ran out.
    """
    args = args or ()
    kwargs = kwargs or {}
    outcome = _Outcome()
    worker = StoppableThread(target=outcome.run, args=(func, args, kwargs), daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        outcome.abandoned = True
        _abandoned_threads.append(worker)
        worker.stop(_stop_type(timeout, func, args, kwargs))
        worker.join(min(0.1, timeout / 50.0))  # a moment for the stop to land before the caller goes on
        raise FunctionTimedOut('', timeout, func, args, kwargs)
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


def func_set_timeout(timeout, allowOverride=False):
    """
    Decorator: every call of the function goes through func_timeout. `timeout` is seconds, or a function of the
    call's arguments giving the seconds; with allowOverride, a forceTimeout= keyword sets the limit of one call.
    """
    computed = callable(timeout) and not isinstance(timeout, (int, float))
    if not computed:
        try:
            timeout = float(timeout)
        except (TypeError, ValueError):
            raise ValueError('func_set_timeout: the timeout argument must be a float/int number of seconds, or a '
                             'function of the call\'s arguments returning one; got %s' % type(timeout).__name__)

    def decorate(func):
        def limited(*args, **kwargs):
            if allowOverride and 'forceTimeout' in kwargs:
                limit = kwargs.pop('forceTimeout')
            else:
                limit = timeout(*args, **kwargs) if computed else timeout
            return func_timeout(limit, func, args=args, kwargs=kwargs)

        limited.__name__ = getattr(func, '__name__', 'limited')
        limited.__doc__ = getattr(func, '__doc__', None)
        return limited

    return decorate

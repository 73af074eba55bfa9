"""
func_timeout for submissions written for the course platform, which import it: the names and behaviour of the
PyPI package func_timeout 4.3.5 (func_timeout, func_set_timeout, FunctionTimedOut, StoppableThread, JoinThread,
RETRY_SAME_TIMEOUT), written anew for the sandbox:

- the call runs in a daemon StoppableThread; the caller waits `timeout` seconds;
- when the time is up, a JoinThread raises a FunctionTimedOut subclass inside the call's thread at once and then
  again every 2 s (raiseEvery) until that thread dies, so a search that catches every exception is still reaped;
  the caller waits min(0.1, timeout / 50) s more and raises FunctionTimedOut('', timeout, func, args, kwargs);
- an Exception raised by the call is re-raised in the caller; a BaseException that is not an Exception (e.g.
  SystemExit) ends only the call's thread, and func_timeout returns None, as the package does;
- a call that finishes in time is joined for up to 0.5 s more, as the package does.

A thread stuck inside one long C call (sum(range(10**12))) only stops when that call returns: the exception is
delivered at the next Python instruction. The sandbox still ends such a move at its deadline by killing the
process. `_leftover_threads()` (for the host, not part of the package) counts the timed-out calls whose threads
are still alive, which the referee writes into the move's record.
"""
import threading

__all__ = ('func_timeout', 'func_set_timeout', 'FunctionTimedOut', 'StoppableThread', 'JoinThread')

RETRY_SAME_TIMEOUT = 'RETRY_SAME_TIMEOUT'


def _thread_stopper():
    """
    A function raising an exception type inside another thread (CPython's PyThreadState_SetAsyncExc, as the
    package does), or None without ctypes. The sandbox host imports this module before it refuses ctypes to
    submissions.
    """
    try:
        import ctypes
    except Exception:
        return None
    set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
    set_async_exc.restype = ctypes.c_int

    def raise_in_thread(ident, exception):
        if set_async_exc(ident, exception) > 1:
            set_async_exc(ident, None)

    return raise_in_thread


_raise_in_thread = _thread_stopper()
# Timed-out call threads, pruned as they die (for _leftover_threads).
_timed_out = []


def _leftover_threads():
    """How many threads of timed-out calls are still alive."""
    _timed_out[:] = [thread for thread in _timed_out if thread.is_alive()]
    return len(_timed_out)


class FunctionTimedOut(BaseException):
    """
    Raised when a function called through func_timeout runs out of time. Attributes: timedOutAfter (seconds),
    timedOutFunction, timedOutArgs, timedOutKwargs, msg; retry() calls the function again.
    """

    def __init__(self, msg='', timedOutAfter=None, timedOutFunction=None, timedOutArgs=None, timedOutKwargs=None):
        self.timedOutAfter = timedOutAfter
        self.timedOutFunction = timedOutFunction
        self.timedOutArgs = timedOutArgs
        self.timedOutKwargs = timedOutKwargs
        if not msg:
            msg = self.getMsg()
        BaseException.__init__(self, msg)
        self.msg = msg

    def getMsg(self):
        """The default message: 'Function f (args=(1,)) (kwargs={}) timed out after 0.500000 seconds.\\n'."""
        if self.timedOutFunction is not None:
            name = self.timedOutFunction.__name__
        else:
            name = 'Unknown Function'
        after = 'Unknown' if self.timedOutAfter is None else '%f' % (self.timedOutAfter,)
        return 'Function %s (args=%s) (kwargs=%s) timed out after %s seconds.\n' % (
            name, repr(self.timedOutArgs), repr(self.timedOutKwargs), after)

    def retry(self, timeout=RETRY_SAME_TIMEOUT):
        """Call the timed-out function again with the same arguments (None: no limit; default: the same limit)."""
        if timeout is None:
            return self.timedOutFunction(*(self.timedOutArgs), **self.timedOutKwargs)
        if timeout == RETRY_SAME_TIMEOUT:
            timeout = self.timedOutAfter
        return func_timeout(timeout, self.timedOutFunction, args=self.timedOutArgs, kwargs=self.timedOutKwargs)


class StoppableThread(threading.Thread):
    """A thread that another thread can stop by raising an exception type inside it, again every raiseEvery s."""

    def _stopThread(self, exception, raiseEvery=2.0):
        if self.is_alive() is False:
            return True
        joinThread = JoinThread(self, exception, repeatEvery=raiseEvery)
        joinThread.start()

    def stop(self, exception, raiseEvery=2.0):
        """Stop the thread by raising `exception` (a type, ideally a BaseException subclass) inside it."""
        return self._stopThread(exception, raiseEvery)


class JoinThread(threading.Thread):
    """Raises the exception in the other thread at once, then every repeatEvery seconds until that thread dies."""

    def __init__(self, otherThread, exception, repeatEvery=2.0):
        threading.Thread.__init__(self)
        self.otherThread = otherThread
        self.exception = exception
        self.repeatEvery = repeatEvery
        self.daemon = True

    def run(self):
        while self.otherThread.is_alive():
            if _raise_in_thread is not None:
                _raise_in_thread(self.otherThread.ident, self.exception)
            self.otherThread.join(self.repeatEvery)


def func_timeout(timeout, func, args=(), kwargs=None):
    """
    Run func(*args, **kwargs) for up to `timeout` seconds and return its value (None if it ended with a
    BaseException such as SystemExit). Raises FunctionTimedOut when the time is up, or the Exception func raised.
    """
    if not kwargs:
        kwargs = {}
    if not args:
        args = ()
    ret = []
    exception = []
    stopped = []

    def funcwrap(args2, kwargs2):
        try:
            ret.append(func(*args2, **kwargs2))
        except FunctionTimedOut:
            pass
        except Exception as error:
            if not stopped:
                exception.append(error)

    thread = StoppableThread(target=funcwrap, args=(args, kwargs))
    thread.daemon = True
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        stopped.append(True)

        class FunctionTimedOutTempType(FunctionTimedOut):
            def __init__(self):
                FunctionTimedOut.__init__(self, '', timeout, func, args, kwargs)

        # The package raises a fresh subclass per call, named after it, so each call's stop is its own type.
        stop_type = type('FunctionTimedOut' + str(hash('%d_%d_%d_%d' % (id(timeout), id(func), id(args), id(kwargs)))),
                         FunctionTimedOutTempType.__bases__, dict(FunctionTimedOutTempType.__dict__))
        _timed_out.append(thread)
        thread._stopThread(stop_type)
        thread.join(min(0.1, timeout / 50.0))
        raise FunctionTimedOut('', timeout, func, args, kwargs)
    thread.join(0.5)
    if exception:
        raise exception[0]
    if ret:
        return ret[0]
    return None


def func_set_timeout(timeout, allowOverride=False):
    """
    Decorator form: every call runs under func_timeout(timeout, ...). `timeout` may be a function of the call's
    arguments returning the limit. With allowOverride, a `forceTimeout=` keyword replaces the limit per call.
    """
    is_function = callable(timeout) and not isinstance(timeout, (int, float))
    if not is_function and not isinstance(timeout, (float, int)):
        try:
            timeout = float(timeout)
        except Exception:
            raise ValueError('timeout argument must be a float/int for number of seconds, or a function/lambda which '
                             'gets passed the function arguments and returns a calculated timeout (as float or int). '
                             'Passed type: < %s > is not of any of these, and cannot be converted to a float.'
                             % (timeout.__class__.__name__,))

    def decorate(func):
        def _function_wrapper(*args, **kwargs):
            if allowOverride and 'forceTimeout' in kwargs:
                limit = kwargs.pop('forceTimeout')
            elif is_function:
                limit = timeout(*args, **kwargs)
            else:
                limit = timeout
            return func_timeout(limit, func, args=args, kwargs=kwargs)

        return _function_wrapper

    return decorate

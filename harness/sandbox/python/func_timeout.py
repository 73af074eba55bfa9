"""
func_timeout for submissions written for the course platform, which import it: the same names and behaviour as
the PyPI package (func_timeout, func_set_timeout, FunctionTimedOut, StoppableThread). The call runs in a daemon
thread; when the time is up, FunctionTimedOut is raised in the caller and the thread is stopped by raising an
exception inside it, so a search loop does not keep burning CPU after its caller has moved on.

A thread stuck inside one long C call (sum(range(10**12))) only stops when that call returns: the exception is
delivered at the next Python instruction. The sandbox still ends such a move at its deadline by killing the
process.
"""
import threading

__all__ = ('func_timeout', 'func_set_timeout', 'FunctionTimedOut', 'StoppableThread')

RETRY_SAME_TIMEOUT = 'RETRY_SAME_TIMEOUT'



def _thread_stopper():
    """
    A function raising an exception inside another thread (CPython's PyThreadState_SetAsyncExc, as the package
    does), or None without ctypes. The sandbox host imports this module before it refuses ctypes to submissions.
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


class FunctionTimedOut(BaseException):
    """Raised when a function called through func_timeout runs out of time."""

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
        if self.timedOutFunction is not None:
            name = getattr(self.timedOutFunction, '__name__', repr(self.timedOutFunction))
        else:
            name = 'Unknown Function'
        after = 'Unknown' if self.timedOutAfter is None else '%f' % (self.timedOutAfter,)
        return 'Function %s (args=%s) (kwargs=%s) timed out after %s seconds.\n' % (
            name, repr(self.timedOutArgs), repr(self.timedOutKwargs), after)

    def retry(self, timeout=RETRY_SAME_TIMEOUT):
        """Call the timed-out function again with the same arguments (None: no limit; default: the same limit)."""
        if timeout is None:
            return self.timedOutFunction(*(self.timedOutArgs or ()), **(self.timedOutKwargs or {}))
        if timeout == RETRY_SAME_TIMEOUT:
            timeout = self.timedOutAfter
        return func_timeout(timeout, self.timedOutFunction, self.timedOutArgs, self.timedOutKwargs)


class StoppableThread(threading.Thread):
    """A thread that another thread can stop by raising an exception inside it."""

    def _stopThread(self, exception, raiseEvery=2.0):
        if self.is_alive() and _raise_in_thread is not None:
            _raise_in_thread(self.ident, exception)

    def stop(self, exception, raiseEvery=2.0):
        self._stopThread(exception, raiseEvery)


def func_timeout(timeout, func, args=(), kwargs=None):
    """
    Run func(*args, **kwargs) for up to `timeout` seconds and return its value. Raises FunctionTimedOut when the
    time is up (after stopping the thread), or whatever func raised.
    """
    args = tuple(args) if args else ()
    kwargs = dict(kwargs) if kwargs else {}
    result = []
    failure = []
    stopped = []

    def run():
        try:
            result.append(func(*args, **kwargs))
        except FunctionTimedOut:
            pass
        except BaseException as error:
            if not stopped:
                failure.append(error)

    thread = StoppableThread(target=run, name='func_timeout')
    thread.daemon = True
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        stopped.append(True)

        class StopThread(FunctionTimedOut):
            def __init__(self):
                FunctionTimedOut.__init__(self, '', timeout, func, args, kwargs)

        thread._stopThread(StopThread)
        thread.join(min(0.1, timeout / 50.0))
        raise FunctionTimedOut('', timeout, func, args, kwargs)
    if failure:
        error = failure[0]
        raise error.with_traceback(error.__traceback__.tb_next if error.__traceback__ else None)
    if result:
        return result[0]
    return None


def func_set_timeout(timeout, allowOverride=False):
    """
    Decorator form: every call runs under func_timeout(timeout, ...). `timeout` may be a function of the call's
    arguments returning the limit. With allowOverride, a `forceTimeout=` keyword replaces the limit per call.
    """

    def decorate(func):
        def wrapped(*args, **kwargs):
            limit = timeout(*args, **kwargs) if callable(timeout) else timeout
            if allowOverride and 'forceTimeout' in kwargs:
                limit = kwargs.pop('forceTimeout')
            return func_timeout(limit, func, args, kwargs)

        wrapped.__name__ = getattr(func, '__name__', 'wrapped')
        wrapped.__doc__ = getattr(func, '__doc__', None)
        return wrapped

    return decorate

"""
The thread get_move runs in. On the course platform game.py calls get_move through func_timeout, so it runs in a
thread that is not the main one: signal.signal and signal.setitimer raise ValueError there, and code that looks at
threading.current_thread() sees a worker. The host does the same with one long-lived thread (starting a thread per
move would cost more than the rest of a move's overhead), handed each call through two locks.

An exception raised by get_move, SystemExit included, is handed back and raised again in the main thread, where
the host turns it into its answer; the thread itself lives on for the next move.
"""
import _thread
import threading


class MoveThread(object):
    def __init__(self):
        self._go = _thread.allocate_lock()
        self._done = _thread.allocate_lock()
        self._go.acquire()
        self._done.acquire()
        self._job = None
        self._outcome = None
        self._thread = None

    def _serve(self):
        go, done = self._go, self._done
        while True:
            go.acquire()
            job, self._job = self._job, None
            try:
                self._outcome = (True, job())
            except BaseException as error:  # noqa: B902 (SystemExit too: the main thread decides)
                self._outcome = (False, error)
            job = None
            done.release()

    def call(self, job):
        """job() in the move thread; its value, or its exception raised here."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name='get_move', daemon=True)
            self._thread.start()
        self._job = job
        self._go.release()
        self._done.acquire()
        ok, value = self._outcome
        self._outcome = None
        if ok:
            return value
        try:
            raise value
        finally:
            value = None

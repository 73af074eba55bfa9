"""
What of the Python host a submission gets hold of: the MoveInfo it receives as `info=` and the threading.excepthook
in force. A function's __globals__ is open to any code that holds it (no audit event guards it), so these live in
a module of their own, loaded by path and then dropped from sys.modules: through them a submission reaches this
file's names only, never the host's (its channel, its live board, its tamper check).
"""
import os
import sys
import threading
import traceback


class MoveInfo(object):
    """
    What get_move receives as `info=` when it has a parameter literally named `info` (the TypeScript MoveInfo):
    snake_case attributes, and the TypeScript names as keys (info['timeLimitMs']).
    """
    __slots__ = ('color', 'time_limit_ms', 'turn_time_limit_ms', 'turn_time_used_ms', 'move_number',
                 'time_used_ms', 'attempt', 'attempts_allowed', 'last_move', '_fields')

    def __init__(self, fields):
        self._fields = dict(fields)
        self.color = fields.get('color')
        self.time_limit_ms = fields.get('timeLimitMs')
        self.turn_time_limit_ms = fields.get('turnTimeLimitMs')
        self.turn_time_used_ms = fields.get('turnTimeUsedMs')
        self.move_number = fields.get('moveNumber')
        self.time_used_ms = fields.get('timeUsedMs')
        self.attempt = fields.get('attempt')
        self.attempts_allowed = fields.get('attemptsAllowed')
        self.last_move = fields.get('lastMove')

    @property
    def time_limit(self):
        """The per-move limit in seconds, as func_timeout counts."""
        return self.time_limit_ms / 1000.0

    def __getitem__(self, key):
        return self._fields[key]

    def get(self, key, default=None):
        return self._fields.get(key, default)

    def __repr__(self):
        return 'MoveInfo(%r)' % (self._fields,)


def thread_excepthook_for(root):
    """
    threading.excepthook as the platform's: an exception that ends a thread the submission started (say, between
    turns) prints "Exception in thread NAME:" and its traceback to stderr and the program goes on, so it is in
    that move's output and never a crash; SystemExit ends the thread quietly. Unlike the default hook it writes
    the report in one piece (the default writes line by line, which the answer could cut between two moves) and
    names the submission's files as the student wrote them, not by the private staged folder.
    """
    prefix = root.rstrip(os.sep) + os.sep
    format_exception = traceback.format_exception
    write = os.write

    def hook(args):
        if args.exc_type is SystemExit:
            return
        try:
            name = args.thread.name if args.thread is not None else threading.get_ident()
            lines = format_exception(args.exc_type, args.exc_value, args.exc_traceback)
            report = ('Exception in thread %s:\n%s' % (name, ''.join(lines))).replace(prefix, '')
        except BaseException:
            report = 'Exception in thread: <unprintable %s>\n' % getattr(args.exc_type, '__name__', 'exception')
        stream = sys.stderr  # the platform's hook writes to the current sys.stderr, replaced or not
        try:
            stream.write(report)
            stream.flush()
        except BaseException:
            data = report.encode('utf-8', 'replace')
            while data:
                data = data[write(2, data):]

    return hook

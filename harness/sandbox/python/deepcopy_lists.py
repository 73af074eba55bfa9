"""
copy.deepcopy of lists without an audit event per element, for submissions that copy board._board (a list of 8
lists of 8 one-letter strings) once per simulation.

Why: copy.deepcopy calls id() for every object it meets, and id() raises the `builtins.id` audit event, so with the
sandbox's audit hook installed each call of the hook (a Python function, with its argument tuple) costs more than
the copying itself: an 8x8 board's deepcopy took 2-4x as long as without the hook. The audit hook cannot be told
to skip an event at C level, so instead the copier for `list` in copy's dispatch table (where copy.deepcopy
looks up how to copy a list) is replaced by this one, which gives the same result and fills the memo exactly as
copy's own list copier does, with the same keys: an object's id computed from object.__hash__, which for a plain
object is its address rotated right by 4 bits (CPython's pointer hash) and raises no audit event. `install`
checks that equality on live objects first and changes nothing where it does not hold.

Only lists are handled here; every element that is not a plain str/int/float/bool/None or a list goes through
copy.deepcopy as before.
"""
import copy as _copy

_MASK = (1 << 64) - 1
_ATOMIC = frozenset((str, int, float, bool, type(None)))


def _identity_matches(pointer_hash):
    """Whether id(obj) == rotate_left(object.__hash__(obj), 4) for a sample of live objects."""
    samples = [[], {}, object(), 'x' * 33, _copy, _ATOMIC, [[1]], 12345678901234567890]
    for sample in samples:
        h = pointer_hash(sample) & _MASK
        if ((h << 4) | (h >> 60)) & _MASK != id(sample):
            return False
    return True


def install():
    """Replace copy's list copier; True when it was replaced."""
    pointer_hash = object.__hash__
    if (1 << 63) - 1 != __import__('sys').maxsize or not _identity_matches(pointer_hash):
        return False
    deepcopy = _copy.deepcopy
    atomic = _ATOMIC
    mask = _MASK
    kind_of = type
    nil = []

    def keep_alive(value, memo):
        # as copy's _keep_alive: memo[id(memo)] holds what was copied, so no id is reused while the memo lives
        h = pointer_hash(memo) & mask
        key = ((h << 4) | (h >> 60)) & mask
        kept = memo.get(key)
        if kept is None:
            memo[key] = [value]
        else:
            kept.append(value)

    def deepcopy_list(x, memo, deepcopy=deepcopy):
        h = pointer_hash(x) & mask
        y = []
        memo[((h << 4) | (h >> 60)) & mask] = y
        append = y.append
        for a in x:
            cls = kind_of(a)
            if cls in atomic:
                append(a)
            elif cls is list:
                h = pointer_hash(a) & mask
                d = ((h << 4) | (h >> 60)) & mask
                copied = memo.get(d, nil)
                if copied is nil:
                    # a row of plain values: copied by slicing, memoized as deepcopy memoizes it
                    for cell in a:
                        if kind_of(cell) not in atomic:
                            copied = deepcopy(a, memo)
                            break
                    else:
                        copied = a[:]
                        memo[d] = copied
                        keep_alive(a, memo)
                append(copied)
            else:
                append(deepcopy(a, memo))
        return y

    _copy._deepcopy_dispatch[list] = deepcopy_list
    return True

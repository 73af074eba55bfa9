"""
Referee's compile step for Python submissions, run by the grader outside the sandbox: it only parses the
student's files (ast.parse runs nothing). From the entry it follows imports of modules inside the submission
folder, parses each, and prints JSON: {"files": [paths], "problems": [{"file", "line", "column", "text"}], "warnings": [...],
"probed": {candidate path: its real path, or null where no file is}, "contents": {path: sha256 of the bytes parsed}} (the grader keeps the report while the files'
contents and every probed path are as they were: harness/submission/compile-python.ts).
A warning is code that runs here but fails on the platform: game.py calls `get_move(board=...)` by keyword, so a
get_move whose board parameter has another name raises TypeError there.
Imports of anything else (the standard library, board, func_timeout, packages) are left to the run itself.

Usage: python3 -I -B -S syntax.py <root> <entry>
"""
import ast
import hashlib
import json
import os
import sys

MAX_FILES = 500


def inside(path, root):
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


PROBED = {}


def locate(dotted, bases, root):
    """Files inside `root` that importing `dotted` from one of `bases` may load (packages and their modules)."""
    parts = [part for part in dotted.split('.') if part]
    for base in bases:
        for depth in range(1, len(parts) + 1):
            stem = os.path.join(base, *parts[:depth])
            for candidate in (stem + '.py', os.path.join(stem, '__init__.py')):
                if os.path.isfile(candidate):
                    real = os.path.realpath(candidate)
                    PROBED[candidate] = real
                    if inside(real, root):
                        yield real
                else:
                    PROBED[candidate] = None


def imported(tree, path, bases, root):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from locate(alias.name, bases, root)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ''
            if node.level:
                base = os.path.dirname(path)
                for _ in range(node.level - 1):
                    base = os.path.dirname(base)
                search = [base]
            else:
                search = bases
            names = [module] if module else []
            names += [(module + '.' if module else '') + alias.name for alias in node.names if alias.name != '*']
            for name in names:
                yield from locate(name, search, root)


SIGNATURE_WARNING = ('on the platform this fails: game.py calls get_move(board=...) \u2014 name the parameter board '
                     '(get_move(self, board))')


def signature_warnings(tree, relative):
    """get_move methods of a top-level class AIPlayer that game.py's get_move(board=board) cannot call."""
    warnings = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name != 'AIPlayer':
            continue
        for item in node.body:
            if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) or item.name != 'get_move':
                continue
            arguments = item.args
            by_keyword = [a.arg for a in arguments.args] + [a.arg for a in arguments.kwonlyargs]
            if 'board' in by_keyword or arguments.kwarg is not None:
                continue
            warnings.append({'file': relative, 'line': item.lineno, 'column': item.col_offset + 1,
                             'text': SIGNATURE_WARNING})
    return warnings


def main():
    root = os.path.realpath(sys.argv[1])
    entry = os.path.realpath(sys.argv[2])
    entry_dir = os.path.dirname(entry)
    bases = [entry_dir] if entry_dir == root else [entry_dir, root]
    files, problems, warnings, queue, contents = [], [], [], [entry], {}
    while queue and len(files) < MAX_FILES:
        path = queue.pop(0)
        if path in files:
            continue
        files.append(path)
        relative = os.path.relpath(path, root)
        try:
            with open(path, 'rb') as handle:
                source = handle.read()
            contents[path] = hashlib.sha256(source).hexdigest()
            tree = ast.parse(source, filename=relative)
        except SyntaxError as error:
            text = '%s: %s' % (type(error).__name__, error.msg)
            problems.append({'file': relative, 'line': error.lineno or 0, 'column': error.offset or 0, 'text': text})
            continue
        except (ValueError, UnicodeDecodeError, RecursionError, MemoryError) as error:
            problems.append({'file': relative, 'line': 0, 'column': 0, 'text': '%s: %s' % (type(error).__name__, error)})
            continue
        if path == entry:
            warnings.extend(signature_warnings(tree, relative))
        queue.extend(imported(tree, path, bases, root))
    print(json.dumps({'files': files, 'problems': problems, 'warnings': warnings, 'probed': PROBED, 'contents': contents}))


if __name__ == '__main__':
    main()

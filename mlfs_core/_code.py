"""What the registries need to know about user code, without importing it.

- :func:`source_digest`: the SHA-256 identity of the code behind a function
  (cache keys of plug-in methods, classifiers and metrics): the file that
  defines it and every file of the user's own code it reaches (the local
  modules it imports, the whole folder of a local package, data files
  included), or, for code installed from a distribution, the distribution's
  name, version and file hashes. The standard library, site-packages and the
  engine itself are not part of it (the engine's ``CACHE_VERSION`` covers
  the engine);
- :func:`on_unknown_name`: what a registry calls when asked for a name it does
  not know. :mod:`mlfs_core.plugins` installs its loader of the installed and
  ``MLFS_PLUGINS`` plug-ins here when imported (every registry imports it to
  declare itself).
"""

from __future__ import annotations

import hashlib
import inspect
import os
import site
import sys
import sysconfig
import types
from collections.abc import Callable
from pathlib import Path

UNKNOWN_NAME_LOADERS: list[Callable[[], object]] = []
"""Called in turn by :func:`on_unknown_name`."""

_DIGESTS: dict[int, tuple[object, str | None]] = {}  # id(obj) -> (obj, digest)
_FILES: dict[str, str] = {}  # path -> SHA-256 of its bytes (this process)
_ENGINE = str(Path(__file__).resolve().parent)
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


def on_unknown_name() -> None:
    """Give the plug-in loader (if installed) one chance to register a name."""
    for loader in list(UNKNOWN_NAME_LOADERS):
        loader()


def _file_sha(path: str) -> str:
    digest = _FILES.get(path)
    if digest is None:
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        _FILES[path] = digest
    return digest


_ROOTS: list[str] = []


def _system_roots() -> list[str]:
    """Folders of code that is not the user's: the standard library and
    site-packages (each resolved, with a trailing separator)."""
    if not _ROOTS:
        found = set()
        paths = sysconfig.get_paths()
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            if paths.get(key):
                found.add(paths[key])
        try:
            found.update(site.getsitepackages())
        except AttributeError:  # pragma: no cover - some virtualenvs
            pass
        user = getattr(site, "USER_SITE", None)
        if user:
            found.add(user)
        _ROOTS.extend(os.path.join(os.path.realpath(p), "") for p in sorted(found) if p)
    return _ROOTS


def _is_system(path: str) -> bool:
    return any(path.startswith(root) for root in _system_roots())


def _is_engine(path: str) -> bool:
    return path == _ENGINE or path.startswith(os.path.join(_ENGINE, ""))


_RECORDS: dict[str, dict[str, object]] = {}  # sys.path folder -> {file: dist}


def _distribution_of(path: str):
    """The installed distribution whose files hold ``path`` (None if none).

    Looks in the ``*.dist-info`` folders beside the ``sys.path`` entry that
    holds ``path`` (read once per folder and process).
    """
    from importlib import metadata

    for entry in sorted({os.path.realpath(p or ".") for p in sys.path}, key=len)[::-1]:
        if not path.startswith(os.path.join(entry, "")):
            continue
        table = _RECORDS.get(entry)
        if table is None:
            table = {}
            for dist in metadata.distributions(path=[entry]):
                for file in dist.files or ():
                    if str(file).endswith(".py"):
                        located = os.path.realpath(dist.locate_file(file))
                        table.setdefault(located, dist)
            _RECORDS[entry] = table
        if path in table:
            return table[path]
    return None


def _distribution_identity(dist) -> str:
    """Name, version and the SHA-256 of every file of a distribution."""
    h = hashlib.sha256()
    h.update(f"{dist.metadata['Name']}=={dist.version}\n".encode())
    for file in sorted(dist.files or (), key=str):
        if str(file).endswith(_SKIPPED_SUFFIXES) or "__pycache__" in str(file):
            continue
        located = os.path.realpath(dist.locate_file(file))
        if os.path.isfile(located):
            h.update(f"{file}:{_file_sha(located)}\n".encode())
    return h.hexdigest()


def _package_files(folder: str) -> list[str]:
    """Every file under a local package's folder (code and data), sorted."""
    out = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and d[0] != ".")
        for name in sorted(files):
            if not name.endswith(_SKIPPED_SUFFIXES) and name[0] != ".":
                out.append(os.path.join(here, name))
    return out


def _module_path(module) -> str | None:
    path = getattr(module, "__file__", None)
    if not path or not os.path.isfile(path):
        return None
    return os.path.realpath(path)


def _top_package_folder(module, path: str) -> str | None:
    """The folder of the top-level package of ``module`` (None for a plain
    module), if that folder is local."""
    package = getattr(module, "__package__", None) or ""
    if not package:
        return None
    top = sys.modules.get(package.split(".")[0])
    top_path = _module_path(top) if top is not None else None
    if top_path is None or not top_path.endswith("__init__.py"):
        return None
    folder = os.path.dirname(top_path)
    return None if _is_system(folder + os.sep) or _is_engine(folder) else folder


def _reached_modules(module):
    """Modules ``module``'s globals name (as modules, or through the functions
    and classes they hold), and its package's modules already imported."""
    seen = []
    for value in list(vars(module).values()):
        if isinstance(value, types.ModuleType):
            seen.append(value)
        else:
            name = getattr(value, "__module__", None)
            if isinstance(name, str) and name in sys.modules:
                seen.append(sys.modules[name])
    package = getattr(module, "__package__", None) or ""
    if package:
        top = package.split(".")[0]
        seen += [
            m
            for n, m in list(sys.modules.items())
            if n == top or n.startswith(top + ".")
        ]
    return seen


def _closure(module, start: str) -> dict[str, str] | None:
    """``{label: digest}`` of the user's code reached from ``module`` (whose
    file is ``start``); None if some of it cannot be identified."""
    parts: dict[str, str] = {}
    todo = [(module, start)]
    visited: set[str] = set()
    while todo:
        mod, path = todo.pop()
        if path in visited:
            continue
        visited.add(path)
        if _is_engine(path):
            continue
        first = len(visited) == 1  # the defining module: may be installed code
        dist = _distribution_of(path) if first or not _is_system(path) else None
        if dist is not None:
            parts[f"dist:{dist.metadata['Name']}"] = _distribution_identity(dist)
            continue
        if _is_system(path):
            continue
        folder = _top_package_folder(mod, path) if mod is not None else None
        if folder is not None:
            key = f"pkg:{folder}"
            if key not in parts:
                h = hashlib.sha256()
                for file in _package_files(folder):
                    rel = os.path.relpath(file, folder)
                    h.update(f"{rel}:{_file_sha(file)}\n".encode())
                parts[key] = h.hexdigest()
        else:
            parts[f"file:{path}"] = _file_sha(path)
        if mod is None:
            continue
        for other in _reached_modules(mod):
            other_path = _module_path(other)
            if other_path is None or other_path in visited:
                continue
            todo.append((other, other_path))
    return parts


def _label(key: str) -> str:
    """``kind:name`` of a part, without the folders (keys do not depend on
    where the code lives)."""
    kind, _, rest = key.partition(":")
    return f"{kind}:{os.path.basename(rest)}" if kind != "dist" else key


def _compute(obj) -> str | None:
    target = getattr(obj, "function", None) or obj
    for candidate in (target, type(target)):
        try:
            unwrapped = inspect.unwrap(candidate)
            path = inspect.getsourcefile(unwrapped)
        except (TypeError, ValueError):
            continue
        if not path or not os.path.isfile(path):
            return None
        path = os.path.realpath(path)
        module = inspect.getmodule(unwrapped)
        if module is not None and _module_path(module) != path:
            module = None
        parts = _closure(module, path)
        if parts is None:
            return None
        if list(parts) == [f"file:{path}"]:
            return parts[f"file:{path}"]  # one file: its digest, as before
        labelled = sorted((_label(k), v) for k, v in parts.items())
        text = "\n".join(f"{label}:{v}" for label, v in labelled)
        return hashlib.sha256(text.encode()).hexdigest()
    return None


def source_digest(obj) -> str | None:
    """SHA-256 identity of the code behind ``obj`` (None when it has no file).

    ``obj`` is a function, a class, or a callable object (its class's file);
    decorated functions are unwrapped, and a method adapter's ``function``
    attribute is followed. The identity covers the file defining it and
    every file of the user's own code that file reaches: the local modules
    its module imports (followed in turn), and for a module of a local
    package every file under the package's folder (submodules and data
    files). Code under the standard library, site-packages or the engine
    is left out, except that code installed from a distribution counts as
    the distribution's name, version and file hashes. A definition reaching
    no other file of the user's gets its file's SHA-256 itself.

    Computed once per object and process (the code that runs in a process
    is the code it imported).

    Examples
    --------
    >>> len(source_digest(source_digest))
    64
    >>> source_digest(len) is None
    True
    """
    known = _DIGESTS.get(id(obj))
    if known is not None and known[0] is obj:
        return known[1]
    digest = _compute(obj)
    _DIGESTS[id(obj)] = (obj, digest)
    return digest


def forget() -> None:
    """Forget the identities computed in this process (tests that edit code)."""
    _DIGESTS.clear()
    _FILES.clear()


def _user_code_error(kind: str, name: str, exc: BaseException):
    """A :class:`~mlfs_core.errors.UserCodeError` for ``exc``, raised by the
    user's ``kind`` called ``name``: where is the deepest frame of the
    traceback in the user's own code (not the engine, the standard library or
    site-packages), else the deepest frame."""
    import traceback

    from .errors import UserCodeError

    if isinstance(exc, UserCodeError):
        return exc
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    chosen = None
    for frame in reversed(frames):
        path = os.path.realpath(frame.filename) if frame.filename else ""
        if os.path.isfile(path) and not _is_engine(path) and not _is_system(path):
            chosen = frame
            break
    if chosen is None and frames:
        chosen = frames[-1]
    if chosen is not None:
        where = f"{os.path.basename(chosen.filename)}:{chosen.lineno}"
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    message = " ".join(str(exc).split())
    return UserCodeError(kind, name, where, type(exc).__name__, message, details)


class blame:
    """Context manager: an exception inside becomes a
    :class:`~mlfs_core.errors.UserCodeError` naming ``kind`` and ``name``.

    Examples
    --------
    >>> try:
    ...     with blame("metric", "ratio"):
    ...         1 / 0
    ... except ValueError as exc:
    ...     print(str(exc).split(") ")[1])
    raised ZeroDivisionError: division by zero
    """

    __slots__ = ("kind", "name")

    def __init__(self, kind: str, name: str):
        self.kind = kind
        self.name = name

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is None or not isinstance(exc, Exception):
            return False
        raise _user_code_error(self.kind, self.name, exc) from exc


def outside_engine() -> int:
    """The ``stacklevel`` that makes a warning point at the first caller outside
    the engine (the user's script or notebook cell), for ``warnings.warn``
    called by the function that calls this.

    A warning located inside the engine shows an engine file and a bare source
    line (e.g. ``check_n_folds(``) instead of the line of the user's code that
    caused it; Python 3.11 has no ``skip_file_prefixes``.

    Examples
    --------
    >>> outside_engine() >= 2
    True
    """
    frame = sys._getframe(2)  # the caller of the function that warns
    level = 2
    while frame is not None:
        path = frame.f_code.co_filename
        if not (os.path.isfile(path) and _is_engine(os.path.realpath(path))):
            return level
        frame = frame.f_back
        level += 1
    return 2

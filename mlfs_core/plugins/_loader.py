"""Finding and importing plug-ins: files, modules, entry points, ``MLFS_PLUGINS``.

See :mod:`mlfs_core.plugins` for the four ways in. Each load is recorded as a
:class:`PluginInfo` naming what the plug-in registered (read from the
registries' declarations, :mod:`._registries`); a plug-in that fails while
loading has what it registered removed again.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import _code
from ..errors import ConfigError
from ._registries import added, registries, remove_added, snapshot

PLUGIN_GROUP = "mlfs_explorer.plugins"
"""Entry-point group of installed plug-ins (``[project.entry-points]`` in pyproject)."""
ENV_VAR = "MLFS_PLUGINS"
"""Environment variable of plug-in specs, separated by :data:`os.pathsep`."""


@dataclass(frozen=True)
class PluginInfo:
    """One loaded plug-in and what it registered.

    Attributes
    ----------
    name : str
        The module name, the file's name, or the entry point's name.
    kind : {"module", "file", "entry point"}
        How it was named.
    source : str
        The module name, the file's absolute path, or the entry point's value.
    spec : str
        What to pass to :func:`load_plugins` to load it again (another process).
    digest : str or None
        SHA-256 of the module's file (None for a module without a file).
    methods : tuple of (str, str)
        The methods it registered, with their versions.
    classifiers, metrics : tuple of str
        The classifiers and metrics it registered.
    variants : tuple of str
        The criterion variants it registered, as ``"METHOD/name"``
        (:func:`mlfs_core.selectors.register_variant`).
    presets : tuple of str
        The protocol presets it registered
        (:func:`mlfs_core.evaluation.register_protocol_preset`).
    binnings : tuple of str
        The discretization strategies it registered
        (:func:`mlfs_core.measures.binning.register_binning`).
    """

    name: str
    kind: str
    source: str
    spec: str
    digest: str | None
    methods: tuple[tuple[str, str], ...] = ()
    classifiers: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    presets: tuple[str, ...] = ()
    binnings: tuple[str, ...] = ()


_LOADED: dict[str, PluginInfo] = {}  # identity (module name or file path) -> info
_ENTRY_POINTS_DONE: list[bool] = []


def file_digest(path) -> str:
    """SHA-256 hex digest of the bytes of ``path``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".py", delete=False) as fh:
    ...     _ = fh.write(b"x = 1\\n")
    >>> len(file_digest(fh.name))
    64
    """
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _is_file_spec(spec: str) -> bool:
    return spec.endswith(".py") or "/" in spec or os.sep in spec


def _registered(before: dict) -> dict:
    """What each registry gained since ``before``, as :class:`PluginInfo` fields."""
    out = {}
    kinds = ("methods", "classifiers", "metrics", "variants", "presets", "binnings")
    for kind in kinds:
        registry = registries().get(kind)
        names = added(before, kind)
        out[kind] = tuple(registry.label(n) for n in names) if names else ()
    return out


def _where(exc: BaseException, path: str | None) -> str:
    """``' (file F, line N)'`` of the deepest frame in the plug-in's file."""
    frames = traceback.extract_tb(exc.__traceback__)
    if isinstance(exc, SyntaxError) and exc.filename:
        return f" (file {exc.filename}, line {exc.lineno})"
    mine = [f for f in frames if path is None or f.filename == path]
    if not mine:
        return ""
    frame = mine[-1]
    return f" (file {frame.filename}, line {frame.lineno})"


def _run_import(label: str, path: str | None, do_import):
    before = snapshot()
    try:
        module = do_import()
    except ConfigError as exc:
        remove_added(before)
        raise ConfigError(f"plugin {label}: {exc}{_where(exc, path)}") from None
    except ModuleNotFoundError as exc:
        remove_added(before)
        raise ConfigError(
            f"plugin {label}: module {exc.name!r} not found "
            "(is it installed, or on PYTHONPATH?)"
        ) from None
    except Exception as exc:
        remove_added(before)
        where = _where(exc, path)
        raise ConfigError(
            f"plugin {label} failed to load: {type(exc).__name__}: {exc}{where}"
        ) from None
    return module, _registered(before)


def _module_name_for(path: Path, digest: str) -> str:
    stem = re.sub(r"\W", "_", path.stem)
    return f"_mlfs_plugin_{stem}_{digest[:12]}"


def _load_file(spec: str, base) -> PluginInfo:
    path = Path(spec)
    if not path.is_absolute():
        path = Path(base if base is not None else os.getcwd()) / path
    path = path.resolve()
    if not path.is_file():
        raise ConfigError(f"plugin file {spec!r} not found ({path})")
    digest = file_digest(path)
    known = _LOADED.get(str(path))
    if known is not None:
        if known.digest != digest:
            raise ConfigError(
                f"plugin file {path} changed on disk since this process loaded it; "
                "restart the process to use the new code"
            )
        return known
    name = _module_name_for(path, digest)

    def do_import():
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        added = _add_folder(path.parent)
        try:
            module_spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            if added:
                sys.path.remove(str(path.parent))
            raise
        return module

    _, registered = _run_import(f"file {path}", str(path), do_import)
    info = PluginInfo(path.name, "file", str(path), str(path), digest, **registered)
    _LOADED[str(path)] = info
    return info


def _add_folder(folder: Path) -> bool:
    """Put a plug-in file's folder on ``sys.path`` (last), so the file imports
    its own helper modules (``from myhelper import score`` beside it) wherever
    it is loaded from: this process, a worker, ``mlfs verify``, the app.
    Returns whether it was added (it was not there yet)."""
    entry = str(folder)
    if any(os.path.realpath(p or ".") == entry for p in sys.path):
        return False
    sys.path.append(entry)
    return True


def _module_digest(module) -> str | None:
    path = getattr(module, "__file__", None)
    if not path or not os.path.isfile(path):
        return None
    return file_digest(path)


def _load_module(spec: str) -> PluginInfo:
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", spec):
        raise ConfigError(
            f"plugin {spec!r} is neither a module name nor a .py file path"
        )
    known = _LOADED.get(spec)
    if known is not None:
        return known
    module, registered = _run_import(
        f"module {spec!r}", None, lambda: importlib.import_module(spec)
    )
    info = PluginInfo(spec, "module", spec, spec, _module_digest(module), **registered)
    _LOADED[spec] = info
    return info


def _load_entry_points() -> list[PluginInfo]:
    if _ENTRY_POINTS_DONE:
        return []
    _ENTRY_POINTS_DONE.append(True)
    from importlib.metadata import entry_points

    infos = []
    for ep in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        module_name = ep.value.split(":")[0].strip()
        identity = module_name if ":" not in ep.value else f"entry point {ep.value}"
        if identity in _LOADED:
            continue

        def do_import(ep=ep):
            obj = ep.load()
            if callable(obj) and not isinstance(obj, type(sys)):
                obj()  # an entry point may name a setup function
            return importlib.import_module(module_name)

        module, registered = _run_import(f"entry point {ep.name!r}", None, do_import)
        info = PluginInfo(
            ep.name,
            "entry point",
            ep.value,
            module_name,
            _module_digest(module),
            **registered,
        )
        _LOADED[identity] = info
        infos.append(info)
    return infos


def _environment_specs() -> list[str]:
    return [s for s in os.environ.get(ENV_VAR, "").split(os.pathsep) if s.strip()]


def load_plugins(
    specs: Sequence[str] = (),
    *,
    base=None,
    entry_points: bool = True,
    environment: bool = True,
) -> list[PluginInfo]:
    """Load plug-ins (once per process each) and say what they registered.

    Parameters
    ----------
    specs : sequence of str
        Importable module names or paths of ``.py`` files.
    base : path, optional
        Folder that relative file paths are resolved against (default the
        working directory); experiment configs pass their own folder.
    entry_points : bool, default=True
        Also load the installed plug-ins of the group :data:`PLUGIN_GROUP`
        (the first time only).
    environment : bool, default=True
        Also load the specs of the environment variable :data:`ENV_VAR`
        (relative paths against the working directory).

    Returns
    -------
    list of PluginInfo
        One per plug-in named by this call (loaded now or before), entry
        points first, then the environment's, then ``specs``.

    Raises
    ------
    ConfigError
        A module that cannot be found, a file that does not exist, a plug-in
        that raises while loading (the message names the file and line; what
        it registered before failing is removed again), or a file changed on
        disk since it was loaded.
    """
    if isinstance(specs, (str, os.PathLike)):
        specs = [specs]
    infos: list[PluginInfo] = []
    if entry_points:
        infos.extend(_load_entry_points())
    named = [(s, None) for s in _environment_specs()] if environment else []
    named += [(os.fspath(s), base) for s in specs]
    for spec, where in named:
        spec = spec.strip()
        if not spec:
            continue
        if _is_file_spec(spec):
            info = _load_file(spec, where)
        else:
            info = _load_module(spec)
        if info not in infos:
            infos.append(info)
    return infos


def config_plugins(specs, base_dir, problems: list[str]) -> tuple[str, ...]:
    """Load an experiment config's ``plugins = [...]``; return them as a tuple.

    Relative ``.py`` paths are resolved against ``base_dir`` (the config's
    folder), as its dataset paths are, and returned absolute (so a saved
    ``config.toml`` loads the same files from anywhere). Each problem (not a
    list of strings, a plug-in that cannot be loaded) is appended to
    ``problems`` as ``"plugins: ..."``.
    """
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, (list, tuple)) or not all(
        isinstance(s, str) for s in specs
    ):
        problems.append(
            f"plugins: must be a list of module names or .py paths, got {specs!r}"
        )
        return ()
    out = []
    for spec in specs:
        try:
            infos = load_plugins(
                [spec], base=base_dir, entry_points=False, environment=False
            )
        except ConfigError as exc:
            problems.append(f"plugins: {exc}")
            out.append(spec)
        else:
            out.append(infos[-1].spec)
    return tuple(out)


def ensure_plugins(specs: Sequence[str]) -> None:
    """Load ``specs`` in a worker process (cheap when already loaded).

    Entry points and ``MLFS_PLUGINS`` are loaded too: a worker sees the same
    installed plug-ins as its parent.
    """
    if specs and all(s in _LOADED for s in specs) and _ENTRY_POINTS_DONE:
        return
    load_plugins(specs, entry_points=True, environment=False)


def loaded_plugins() -> list[PluginInfo]:
    """Every plug-in loaded in this process, in load order."""
    return list(_LOADED.values())


def plugin_specs() -> tuple[str, ...]:
    """Specs of the plug-ins this process loaded, to hand to worker processes.

    Entry points are not listed (a worker loads them itself); files are
    listed by absolute path.
    """
    return tuple(i.spec for i in _LOADED.values() if i.kind != "entry point")


def checkpoint() -> tuple:
    """The plug-in state of this process: registries' names and loaded plug-ins.

    For tests and notebooks that try plug-ins: :func:`rollback` returns to it.
    """
    return snapshot(), dict(_LOADED)


def rollback(state: tuple) -> None:
    """Unregister what was registered since :func:`checkpoint` gave ``state``,
    and forget the plug-ins loaded since (their modules stay imported).

    Installed plug-ins (entry points) loaded since stay loaded, with what
    they registered: their modules stay imported, so they could not register
    again, and a name of theirs (a paper's protocol preset, say) would be
    unknown for the rest of the process.
    """
    before, loaded = state
    installed = {
        k: i for k, i in _LOADED.items() if k not in loaded and i.kind == "entry point"
    }
    remove_added(_with_installed(before, installed.values()))
    _LOADED.clear()
    _LOADED.update(loaded)
    _LOADED.update(installed)


def _with_installed(before: dict, infos) -> dict:
    """The snapshot ``before`` with the names the plug-ins ``infos`` registered."""
    out = dict(before)
    for kind, registry in registries().items():
        recorded = {label for info in infos for label in getattr(info, kind, ())}
        if not recorded:
            continue
        theirs = {n for n in registry.table if registry.label(n) in recorded}
        old = out.get(kind)
        out[kind] = (registry.built_in if old is None else old) | theirs
    return out


def _load_installed() -> None:
    load_plugins()


_code.UNKNOWN_NAME_LOADERS.append(_load_installed)  # the registries' fallback

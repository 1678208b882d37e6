"""Nothing runs that the user did not choose: plug-in code named by a received config.

An experiment config may name plug-ins (``plugins = ["mine.py"]``), and
reading the config imports them: their code runs. That is what the author of
an experiment wants when they run it, but not what someone who *checks* a
results folder sent to them expects. So the commands that read a folder or a
config made elsewhere (``mlfs verify``, ``mlfs benchmark``'s comparisons)
first read the config as plain TOML, list the plug-in code it would import,
and refuse with :class:`UntrustedPlugins` naming it unless the user passes
``--trust-plugins``. A plug-in installed in this environment as a package
with an ``mlfs_explorer.plugins`` entry point is code the user chose to
install: it is trusted. So is one the user loads themselves (``--plugin``)
or names in ``MLFS_PLUGINS``: the commands and the app read that variable
and pass its specs as ``chosen`` (this module reads no environment).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ....errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_TRUST_FLAG = "--trust-plugins"


class UntrustedPlugins(ConfigError):
    """A received config names plug-in code the user has not chosen to run."""


def _installed_plugin_modules() -> set[str]:
    """Top-level module names of the plug-ins installed as entry points."""
    from importlib.metadata import entry_points

    from ....plugins import PLUGIN_GROUP

    out = set()
    for ep in entry_points(group=PLUGIN_GROUP):
        module = ep.value.split(":")[0].strip()
        out.add(module)
        out.add(module.split(".")[0])
    return out


def _chosen_here(chosen=()) -> set[str]:
    """Specs the user loaded in this process (``--plugin``), and ``chosen``."""
    from ....plugins import plugin_specs

    specs = set(plugin_specs())
    specs.update(s for s in chosen if s)
    resolved = set()
    for s in specs:
        resolved.add(s)
        if s.endswith(".py"):
            resolved.add(str(Path(s).resolve()))
    return resolved


def _plugin_code(specs, base_dir, *, chosen=()) -> list[str]:
    """The plug-in specs that would import code the user has not chosen.

    Parameters
    ----------
    specs : list of str
        A config's ``plugins`` (module names or ``.py`` paths).
    base_dir : path
        The config's folder (relative paths resolve against it).
    chosen : sequence of str, optional
        Plug-in specs the user chose besides those loaded in this process
        (the specs of ``MLFS_PLUGINS``, which the caller reads): trusted.

    Returns
    -------
    list of str
        Each untrusted plug-in as shown to the user: a file's absolute path,
        or ``module NAME``.
    """
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, (list, tuple)):
        return []
    installed = _installed_plugin_modules()
    chosen = _chosen_here(chosen)
    out = []
    for spec in specs:
        if not isinstance(spec, str) or not spec.strip():
            continue
        if spec.endswith(".py") or "/" in spec or os.sep in spec:
            path = Path(spec)
            if not path.is_absolute():
                path = Path(base_dir) / path
            path = str(path.resolve())
            if spec not in chosen and path not in chosen:
                out.append(path)
        elif spec not in installed and spec.split(".")[0] not in installed:
            if spec not in chosen:
                out.append(f"module {spec}")
    return out


def check_config_trusted(path, *, trust: bool, command: str, chosen=()) -> list[str]:
    """Refuse the config file ``path`` if it names plug-in code not chosen here.

    Parameters
    ----------
    path : path
        The config (TOML), read as plain data: nothing is imported.
    trust : bool
        The user passed ``--trust-plugins``: return the list, refuse nothing.
    command : str
        The command, for the message (``"mlfs verify"``).
    chosen : sequence of str, optional
        As for :func:`_plugin_code`.

    Returns
    -------
    list of str
        The untrusted plug-in code the config names (empty when none).

    Raises
    ------
    UntrustedPlugins
        Naming the files or modules, when ``trust`` is False.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []  # reading the config proper reports it
    where = str(path)
    base = path.resolve().parent
    return check_text_trusted(
        text, base, trust=trust, command=command, where=where, chosen=chosen
    )


def check_text_trusted(
    text: str,
    base_dir,
    *,
    trust: bool,
    command: str,
    where: str = "the config",
    advice: str | None = None,
    chosen=(),
) -> list[str]:
    """:func:`check_config_trusted` of a config's TOML ``text`` (an upload).

    ``advice`` replaces the default advice (pass ``--trust-plugins`` or
    install the plug-in) where there is no such flag (the app); ``chosen`` is
    :func:`_plugin_code`'s.
    """
    try:
        data = tomllib.loads(text)
    except ValueError:
        return []  # reading the config proper reports it
    code = _plugin_code(data.get("plugins", []), base_dir, chosen=chosen)
    if code and not trust:
        if advice is None:
            advice = (
                f"Pass {_TRUST_FLAG} if you trust that code, or install the plug-in "
                "as a package (entry point mlfs_explorer.plugins)"
            )
        raise UntrustedPlugins(  # the command names itself in front (mlfs X: error:)
            f"{where} names plug-in code that {command} would import and run: "
            f"{', '.join(code)}; nothing was run. {advice}"
        )
    return code

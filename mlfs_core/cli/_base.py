"""What every ``mlfs`` sub-command shares: one-line errors, ``--jobs``, ``--plugin``.

It also reads the environment variables the engine takes from the command
line, which passes their values down (the engine reads none of them; the
app's pages read them for the app): ``MLFS_PLUGINS`` (:func:`chosen_plugins`,
plug-in specs the user chose, trusted by
:mod:`mlfs_core.evaluation.runner.guard.trust`), ``MLFS_REUSE_UNIDENTIFIED``
(:func:`reuse_unidentified`, the runner's ``reuse_unidentified``) and
``MLFS_SPLITS`` (:func:`with_splits_dir`).
"""

from __future__ import annotations

import argparse
import os
import sys


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        """Print ``<prog>: error: <message>`` on one line and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def one_line(text: object) -> str:
    r"""``text`` with its line breaks and runs of spaces folded into single spaces.

    Examples
    --------
    >>> one_line("bad value\n  see the docs")
    'bad value see the docs'
    """
    return " ".join(str(text).split())


def jobs(value: str) -> int:
    """argparse type of ``--jobs``: a non-zero int (joblib's -1 = every core).

    Examples
    --------
    >>> jobs("-1")
    -1
    """
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n == 0:
        raise argparse.ArgumentTypeError(
            f"must be a non-zero integer (1 = no parallelism, -1 = all cores), "
            f"got {value!r}"
        )
    return n


_PLUGIN_HELP = (
    "load a plug-in (a module name or a .py file) that registers methods, "
    "classifiers or metrics; repeatable"
)


def add_plugin_options(parser: argparse.ArgumentParser, subparsers) -> None:
    """Add ``--plugin SPEC`` (repeatable) to ``parser`` and to every sub-command.

    ``mlfs --plugin mine.py experiment ...`` and ``mlfs experiment --plugin
    mine.py ...`` are the same. Call it after every sub-command is added; a
    sub-command must not define ``--plugin`` itself.
    """
    add_to_every_command(
        parser,
        subparsers,
        "--plugin",
        dest=("plugins_before", "plugins"),
        default=[],
        action="append",
        metavar="SPEC",
        help=_PLUGIN_HELP,
    )


def add_to_every_command(
    parser: argparse.ArgumentParser,
    subparsers,
    flag: str,
    *,
    dest: tuple[str, str],
    default: object,
    **options,
) -> None:
    """Add the option ``flag`` to ``parser`` and to every sub-command.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The top-level parser.
    subparsers
        What ``parser.add_subparsers()`` returned, every sub-command added.
    flag : str
        The option, e.g. ``"--debug"``.
    dest : (str, str)
        Where it is stored when given before the sub-command's name, and
        when given after it (absent from the namespace unless given, so the
        sub-command's parser never overwrites the first).
    default : object
        The value of ``dest[0]`` when the option is not given before.
    **options
        Further :meth:`~argparse.ArgumentParser.add_argument` keywords, the
        same for both (``action``, ``metavar``, ``help``).
    """
    before, after = dest
    parser.add_argument(flag, dest=before, default=default, **options)
    for sub in subparsers.choices.values():
        sub.add_argument(flag, dest=after, default=argparse.SUPPRESS, **options)


def _cli_plugin_specs(args: argparse.Namespace) -> list[str]:
    """The ``--plugin`` specs given before and after the sub-command, in order."""
    return [*getattr(args, "plugins_before", []), *getattr(args, "plugins", [])]


def load_cli_plugins(args: argparse.Namespace) -> None:
    """Load the ``--plugin`` specs, the installed plug-ins and ``MLFS_PLUGINS``.

    The loaded specs are added to ``MLFS_PLUGINS`` in this process's
    environment, so the processes it starts (the app's server, joblib
    workers) load them too.
    """
    from ..plugins import ENV_VAR, load_plugins, plugin_specs

    specs = _cli_plugin_specs(args)
    listing = getattr(args, "command", None) == "methods"  # lists every plug-in's
    if not specs and not os.environ.get(ENV_VAR) and not listing:
        return  # installed entry points load on the first unknown name (cheaper)
    load_plugins(specs)
    os.environ[ENV_VAR] = os.pathsep.join(plugin_specs())


def write_csv(df, out: str | None) -> None:
    """Write ``df`` as CSV to the file ``out``, or to stdout when ``out`` is None.

    Text cells a spreadsheet would evaluate (``=cmd|...``) are escaped
    (:func:`mlfs_core.evaluation.io.escape_csv_text`).
    """
    from ..evaluation.io import escape_csv_text

    df = escape_csv_text(df)
    if out:
        df.to_csv(out, index=False)
    else:
        df.to_csv(sys.stdout, index=False, lineterminator="\n")


_PROGRESS_EVERY = 10.0
"""Seconds between two progress lines when stderr is not a terminal."""
_LAST_LINE = [float("-inf")]


def progress(done: int, total: int, message: str) -> None:
    """Show ``[done/total] message`` on stderr.

    On a terminal: one line, rewritten in place (``\\r``). Otherwise (a log
    file, a pipe): whole lines with no ``\\r``, the first and the last task's
    and at most one every :data:`_PROGRESS_EVERY` seconds between.
    """
    if _is_terminal(sys.stderr):
        line = f"\r[{done}/{total}] {message[:70]:<70}"
        print(line, end="", file=sys.stderr, flush=True)
        return
    import time

    now = time.monotonic()
    if done <= 1 or done >= total or now - _LAST_LINE[0] >= _PROGRESS_EVERY:
        _LAST_LINE[0] = now
        print(f"[{done}/{total}] {message}", file=sys.stderr, flush=True)


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def chosen_plugins(environ=None) -> list[str]:
    """The plug-in specs of ``MLFS_PLUGINS``: code the user chose, so trusted.

    The command line reads the variable and passes the specs down
    (:func:`~mlfs_core.evaluation.runner.guard.trust.check_config_trusted`'s
    ``chosen``); the engine reads no environment for it.

    Examples
    --------
    >>> chosen_plugins({"MLFS_PLUGINS": os.pathsep.join(["a.py", "", "mod"])})
    ['a.py', 'mod']
    """
    from ..plugins import ENV_VAR

    env = os.environ if environ is None else environ
    return [s for s in env.get(ENV_VAR, "").split(os.pathsep) if s]


def reuse_unidentified(environ=None) -> bool:
    """Whether ``MLFS_REUSE_UNIDENTIFIED`` is ``1``: the runner's
    ``reuse_unidentified`` (:mod:`mlfs_core.evaluation.runner.identity`).

    Examples
    --------
    >>> reuse_unidentified({"MLFS_REUSE_UNIDENTIFIED": "1"}), reuse_unidentified({})
    (True, False)
    """
    from ..evaluation.runner.identity import REUSE_ENV

    return (os.environ if environ is None else environ).get(REUSE_ENV) == "1"


def with_splits_dir(config, environ=None):
    """``config`` with ``protocol.splits_dir`` from ``$MLFS_SPLITS`` when it has none.

    The command line is the one place that reads this environment variable
    (the engine takes the folder from the config only).

    Examples
    --------
    >>> from mlfs_core.evaluation import ExperimentConfig
    >>> c = ExperimentConfig(datasets=("sample",), methods=("MaxCS",))
    >>> with_splits_dir(c, {"MLFS_SPLITS": "/data/splits"}).protocol.splits_dir
    '/data/splits'
    >>> with_splits_dir(c, {}).protocol.splits_dir is None
    True
    """
    from dataclasses import replace

    folder = (os.environ if environ is None else environ).get("MLFS_SPLITS")
    if not folder or config.protocol.splits_dir is not None:
        return config
    return replace(config, protocol=replace(config.protocol, splits_dir=folder))

"""What every ``mlfs`` sub-command shares: one-line errors, ``--jobs``, ``--plugin``."""

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

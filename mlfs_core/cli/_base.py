"""What every ``mlfs`` sub-command shares: one-line errors, ``--jobs``, CSV output."""

from __future__ import annotations

import argparse
import sys

import pandas as pd


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


def write_csv(df: pd.DataFrame, out: str | None) -> None:
    """Write ``df`` as CSV to the file ``out``, or to stdout when ``out`` is None."""
    if out:
        df.to_csv(out, index=False)
    else:
        df.to_csv(sys.stdout, index=False, lineterminator="\n")


def progress(done: int, total: int, message: str) -> None:
    """Show ``[done/total] message`` on one rewritten stderr line."""
    print(f"\r[{done}/{total}] {message[:70]:<70}", end="", file=sys.stderr, flush=True)

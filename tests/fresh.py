"""Code run in a new interpreter: what a first import costs, whatever ran before.

The tests of import costs and registration order cannot run in the test
process (it has imported everything already); they run a snippet in a fresh
``python -c`` on this checkout and read what it prints.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_fresh(code: str, *, timeout: float = 300) -> str:
    """Run ``code`` in a new interpreter in the checkout; return its stripped stdout.

    A failing snippet fails the test with the snippet's stderr.
    """
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def imported_after(code: str, modules: Iterable[str], *, timeout: float = 300):
    """Which of ``modules`` a new interpreter has imported after running ``code``.

    Returns
    -------
    list of str
        The names among ``modules`` found in ``sys.modules``, sorted.
    """
    probe = (
        f"{code}\nimport sys\n"
        f"print(sorted(m for m in {tuple(modules)!r} if m in sys.modules))\n"
    )
    return ast.literal_eval(run_fresh(probe, timeout=timeout).splitlines()[-1])

"""Print the declared minimum version of each dependency as ``name==version``.

Used by ``.ci/run``'s minimum-versions job: every ``>=`` floor of
``[project].dependencies`` and of the ``test`` extra (playwright aside: the
job runs no browser test; ruff is pinned exactly), so the engine and app
tests run against exactly the versions pyproject.toml promises to support.
"""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

SKIP = {"playwright", "ruff"}
FLOOR = r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][^,\s]*)\s*"


def floors(pyproject: Path) -> list[str]:
    """``name==floor`` for each dependency with a ``>=`` floor (none with a marker)."""
    project = tomllib.loads(pyproject.read_text())["project"]
    out = []
    for spec in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
        requirement, _, marker = spec.partition(";")
        if marker:  # tomli, for Python < 3.11 only: not this CI's Python
            continue
        match = re.fullmatch(FLOOR, requirement)
        if match and match.group(1).lower() not in SKIP:
            out.append(f"{match.group(1)}=={match.group(2)}")
    return out


if __name__ == "__main__":
    print(" ".join(floors(Path(__file__).resolve().parents[1] / "pyproject.toml")))

"""Build the reproduction report of both studies from their committed data.

Usage (from the project root)::

    python -m studies.report            # both studies -> studies/*/tables, docs/
    python -m studies.report --no-png   # skip the figures (no kaleido/chromium)

(``python studies/report.py`` works too.) Reads ``studies/<study>/data/<dataset>/``
(written by :mod:`studies.run_study`), writes the analysis tables to
``studies/<study>/tables/*.csv``, the figures to ``docs/figures/*.png`` and
``docs/reproduction.md`` (its fixed text comes from
``studies/reproduction_intro.md``). Every number in the report is computed here
from the data; each claim of the papers is checked by a small function whose
verdict and evidence are printed into the report. A dataset still running
(partial data only, :mod:`studies.partial`) is listed as in progress and enters
no table or average.

One module per study: :mod:`studies.paper000` (Study 1 and paper 000's
published tables and claims), :mod:`studies.paper000_l2` (its L2-rows
sensitivity check), :mod:`studies.paper000_secondary` (its protocol on other
datasets), :mod:`studies.paper001` (Study 2 and paper 001's statements) and
:mod:`studies.paper001_ref` (paper 001 under the authors' evaluation and each
of its conventions). They share :mod:`studies.data` (inputs, method groups,
app files), :mod:`studies.status` (which datasets are done),
:mod:`studies.markdown` (the one table writer) and :mod:`studies.figures`.
The statistics come from :mod:`mlfs_core.analysis` and
:mod:`mlfs_papers`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # python studies/report.py: import the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from studies import paper000, paper001  # noqa: E402
from studies.data import ROOT, load_study, write_app_sources  # noqa: E402
from studies.paper000_l2 import l2_section  # noqa: E402
from studies.paper000_secondary import secondary_section  # noqa: E402
from studies.paper001_ref import REFERENCE_STUDY, evaluation_summary  # noqa: E402
from studies.status import status_section, write_in_progress  # noqa: E402

STUDIES = (("paper000", paper000), ("paper001", paper001))


def build_report(root: Path, png: bool) -> str:
    """The text of ``docs/reproduction.md``; writes tables, figures and app files."""
    sections = [
        (root / "studies" / "reproduction_intro.md").read_text(encoding="utf-8")
    ]
    summary = ["## Summary", ""]
    for study, module in STUDIES:
        data = load_study(study, root=root)
        if "results" in data:
            write_app_sources(study, data, root)
            write_in_progress(study, root)  # the app names them, averages none
            body = module.section(data, png, root)
            sections += [body[0], "", *status_section(study, data, root), *body[1:]]
            summary += module.summary_lines(data)
            if study == "paper001":
                means = paper001.paper001_tables(data["results"])
                summary += evaluation_summary(means, root)
                reference = load_study(REFERENCE_STUDY, root=root)
                if "results" in reference:  # the app's "authors' evaluation" source
                    write_app_sources(REFERENCE_STUDY, reference, root)
        if study == "paper000":  # its variants, each its own section
            l2, l2_summary = l2_section(data, root)
            secondary, secondary_summary = secondary_section(png, root)
            sections += [*l2, *secondary]
            summary += l2_summary + secondary_summary
    sections[1:1] = [*summary, ""]
    return "\n".join(sections) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry: rebuild everything under ``--root`` (default the repo)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-png", action="store_true")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    out = args.root / "docs" / "reproduction.md"
    out.write_text(build_report(args.root, not args.no_png), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Build the reproduction report of both studies from their committed data.

Usage (from the project root)::

    python studies/report.py            # both studies -> studies/*/tables, docs/
    python studies/report.py --no-png   # skip the figures (no kaleido/chromium)

Reads ``studies/<study>/data/<dataset>/`` (written by ``run_study.py``), writes
the analysis tables to ``studies/<study>/tables/*.csv``, the figures to
``docs/figures/*.png`` and ``docs/reproduction.md`` (its fixed text comes from
``studies/reproduction_intro.md``). Every number in the report
is computed here from the data; each claim of the papers is checked by a small
function whose verdict and evidence are printed into the report.

The work is split over the modules next to this script: ``report_data``
(inputs, method groups, app files), ``report_claims`` (claim checks and the
summary), ``report_render`` (Markdown sections and tables), ``report_figures``
(PNG figures), ``report_status`` (which datasets are done), ``report_published``
(the papers' published results beside ours), ``report_variants`` (study 1's
L2-rows sensitivity check and its secondary table) and ``report_evaluations``
(paper 001 under both evaluations and each reference-code convention alone).
The statistics come from :mod:`mlfs_core.analysis`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from report_claims import paper001_tables, summary_lines
from report_data import ROOT, load_study, write_app_sources
from report_evaluations import REFERENCE_STUDY, evaluation_summary
from report_render import report_paper000, report_paper001
from report_status import status_section
from report_variants import l2_section, secondary_section

STUDIES = (("paper000", report_paper000), ("paper001", report_paper001))


def build_report(root: Path, png: bool) -> str:
    """The text of ``docs/reproduction.md``; writes tables, figures and app files."""
    sections = [
        (root / "studies" / "reproduction_intro.md").read_text(encoding="utf-8")
    ]
    summary = ["## Summary", ""]
    for study, section in STUDIES:
        data = load_study(study, root=root)
        if "results" in data:
            write_app_sources(study, data, root)
            body = section(data, png, root)
            sections += [body[0], "", *status_section(study, data, root), *body[1:]]
            summary += summary_lines(study, data)
            if study == "paper001":
                summary += evaluation_summary(paper001_tables(data["results"]), root)
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

"""The studies' results folders as results sources of the app.

Registers, when imported, one :class:`~mlfs_core.published.Published` record
with a results folder and no comparisons for each study of the repository
whose compact results (``studies/NAME/app``) the analysis pages offer beside
paper 000's own (:mod:`mlfs_papers.paper000.app`, which has comparisons).
The package's entry point (group ``mlfs_explorer.plugins``) imports it the
first time the app lists the registered records; a folder that is not there
(an installed wheel holds no study's ``app`` folder) is no source.
"""

from __future__ import annotations

from mlfs_core.published import Published, register_published

from ._suites import ROOT

STUDIES = {
    "paper001": ("paper 001", "Paper 001 study"),
    # the ATR authors' evaluation conventions (mlfs_papers.paper001.conventions):
    # weighted F1/Jaccard, ranking metrics on 0/1 predictions, Mulan's splits,
    # their ML-kNN
    "paper001-ref": ("paper 001", "Paper 001 study, authors' evaluation"),
    # paper 000's protocol on the shared datasets that are not the paper's,
    # CS/BNS on features binarized at their median
    "paper000-secondary": ("paper 000", "Paper 000 protocol, other datasets"),
}
"""Study name -> (the publication's title, the results source's label)."""

SOURCES = tuple(
    register_published(
        Published(
            name=name,
            title=title,
            results=ROOT / "studies" / name / "app",
            results_label=label,
        )
    )
    for name, (title, label) in STUDIES.items()
)

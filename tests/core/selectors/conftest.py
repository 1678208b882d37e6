"""Fixtures of the selector tests."""

from __future__ import annotations

import pytest

from mlfs_core.selectors.it import triples


@pytest.fixture(params=[0.0, 1.0], ids=["all-counted", "apart-closed-forms"])
def overlap_share(request, monkeypatch) -> float:
    """Both paths of the triple sums, forced: every feature counted
    (``OVERLAP_SHARE = 0``) and every feature apart from s on the closed forms
    (``OVERLAP_SHARE = 1``)."""
    monkeypatch.setattr(triples, "OVERLAP_SHARE", request.param)
    return request.param

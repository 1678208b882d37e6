"""PMU and MDMR as the ATR authors' code computes them, from mlfs_papers.

The variants are registered through the engine's public extension point
(:mod:`mlfs_core.selectors.variants`) by the papers' entry point, and rank
exactly as the committed study data recorded them.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlfs_core import compute_ranking
from mlfs_core.cache import hash_key
from mlfs_core.evaluation import load_config, run_experiment
from mlfs_core.evaluation.runner.identity import code_identity, task_key
from mlfs_core.explain import greedy_steps
from mlfs_core.selectors.greedy import rank_discrete
from mlfs_papers.paper001.variants import MDMR_REFERENCE, NAME, PMU_REFERENCE

from ..core.selectors import test_greedy
from ..core.selectors.test_greedy_oracle import (
    _random_problem,
    assert_ranks_as_naive,
)
from ..fresh import run_fresh

ROOT = Path(__file__).resolve().parents[2]
STUDY = ROOT / "studies" / "paper001" / "data"
planted = test_greedy.planted  # the engine tests' fixture of planted codes


def test_the_entry_point_registers_both_variants_in_a_fresh_process():
    """Check PMU(variant="reference-code") works with no import of mlfs_papers."""
    code = (
        "import sys, numpy as np, mlfs_core\n"
        "X = np.random.default_rng(0).integers(0, 3, (30, 4))\n"
        "Y = (X[:, :2] > 0).astype(int)\n"
        "assert 'mlfs_papers' not in sys.modules\n"
        "r = mlfs_core.compute_ranking(X, Y, 'PMU', variant='reference-code')\n"
        "print(sorted(r.order.tolist()), 'mlfs_papers.paper001.variants' in "
        "sys.modules)\n"
        "from mlfs_core.selectors.variants import variant_names\n"
        "print(variant_names('MDMR'))\n"
    )
    out = run_fresh(code).splitlines()
    assert out == ["[0, 1, 2, 3] True", "('definition', 'reference-code')"]


def test_mdmr_reference_code_equals_d2f(planted):
    """Check that MDMR(variant="reference-code") is D2F, and differs from MDMR."""
    codes, Y = planted
    ref = rank_discrete(codes, Y, "MDMR", variant=NAME)
    d2f = rank_discrete(codes, Y, "D2F")
    mdmr = rank_discrete(codes, Y, "MDMR")
    np.testing.assert_array_equal(ref.order, d2f.order)
    np.testing.assert_array_equal(ref.criterion_path, d2f.criterion_path)
    assert not np.allclose(mdmr.criterion_path, d2f.criterion_path)
    assert MDMR_REFERENCE.redundancy == "interaction"


def test_pmu_reference_code_adds_diagonal_and_doubles_pairs(planted):
    """Check that reference-code PMU's first value is -2 sum_{i<j} I(f;l_i;l_j)."""
    codes, Y = planted
    definition = rank_discrete(codes[:, [2]], Y, "PMU", k=1).criterion_path[0]
    reference = rank_discrete(codes[:, [2]], Y, "PMU", variant=NAME, k=1)
    relevance = rank_discrete(codes[:, [2]], Y, "D2F", k=1).criterion_path[0]
    pair_sum = relevance - definition
    assert reference.criterion_path[0] == pytest.approx(-2 * pair_sum, abs=1e-12)
    assert PMU_REFERENCE.terms[1][0] == "- label pairs, ordered, i = j included"


@pytest.mark.parametrize("method", ["PMU", "MDMR"])
@pytest.mark.parametrize("seed", [3, 4])
def test_reference_code_variant_matches_naive(method, seed):
    """Check that variant="reference-code" matches the naive reading of that code."""
    codes, Y = _random_problem(seed, 45, 6, 4, 3)
    assert_ranks_as_naive(codes, Y, method, variant=NAME)


def test_the_committed_study_selections_are_what_the_variants_rank(shared_datasets):
    """Check PMU-ref and MDMR-ref rank emotions' 50 first features as committed."""
    config = load_config(ROOT / "configs" / "study_paper001.toml")
    refs = tuple(m for m in config.methods if m.params.get("variant") == NAME)
    assert [m.display for m in refs] == ["PMU-ref", "MDMR-ref"]
    config = dataclasses.replace(
        config,
        datasets=(str(shared_datasets / "emotions"),),
        methods=refs,
        protocol=dataclasses.replace(config.protocol, budgets=(50,)),
    )
    fresh = run_experiment(config, n_jobs=1).selections
    stored = pd.read_csv(STUDY / "emotions" / "selections.csv.gz")
    assert len(fresh) == 2
    for _, row in fresh.iterrows():
        same = stored[(stored["method"] == row["method"]) & (stored["fold"] == 0)]
        committed = [int(f) for f in same["features"].iloc[0].split()]
        assert [int(f) for f in row["features"]] == committed[:50]


def test_mlfs_rank_takes_the_papers_variant_in_a_fresh_process():
    """Check `mlfs rank --variant reference-code` finds the installed variant."""
    run = [sys.executable, "-m", "mlfs_core", "rank", "sample", "--k", "3"]
    ref = subprocess.run(
        [*run, "--method", "MDMR", "--variant", NAME],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    d2f = subprocess.run(
        [*run, "--method", "D2F"], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert ref.returncode == 0, ref.stderr
    assert ref.stdout == d2f.stdout and len(ref.stdout.splitlines()) == 4


@pytest.mark.parametrize("method", ["PMU", "MDMR"])
def test_the_learn_pages_explain_the_papers_variants(planted, method):
    """Check greedy_steps' terms of a reference-code run add up to its ranking."""
    codes, Y = planted
    steps = greedy_steps(codes, Y, method, k=5, n_candidates=7, variant=NAME)
    ranking = compute_ranking(codes, Y, method, k=5, variant=NAME)
    assert steps.path["feature"].tolist() == ranking.order.tolist()
    np.testing.assert_allclose(steps.path["criterion"], ranking.criterion_path)
    sums = steps.candidates[steps.terms].sum(axis=1)
    np.testing.assert_allclose(sums, steps.candidates["criterion"], atol=1e-9)
    assert steps.terms[-1] == "- sum_s sum_i I(f; s; l_i)"


def test_a_reference_code_task_is_keyed_by_its_criterion():
    """Check a reference-code task's key names the variant's criterion.

    A selection task's key hashes its description (method name and options,
    ``variant="reference-code"`` among them) and the identity of the user
    code it names: for a registered variant, its terms, redundancy and
    combination, and the code of the terms defined outside the engine (here
    the papers' ordered label-pair term), so an edit of the variant's module
    gives new keys; the definition's keys carry nothing more.
    """
    description = {"kind": "selection", "method": "PMU", "params": {"variant": NAME}}
    ident = code_identity(description)["variant"]
    assert ident["variant"] == NAME and ident["redundancy"] == "interaction"
    assert any(
        c.startswith("mlfs_papers.paper001.variants.") for c in ident["term_code"]
    )
    assert task_key(description) != hash_key(description)
    definition = {**description, "params": {"variant": "definition"}}
    assert code_identity(definition) == {}
    assert task_key(definition) == hash_key(definition)

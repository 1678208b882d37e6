"""The field's baselines beyond score + aggregation and greedy information theory.

Recent multi-label feature selection papers compare a new method against five
families of baselines. Two of them live beside this package (score +
aggregation in :mod:`..filter`, the greedy information-theoretic filters in
:mod:`..greedy`); this package holds the other four, each a module that only
*describes* its methods for the registry (:mod:`.._registry`):

- :mod:`.sparse`: sparse regression (``RFS``, ``LLSF``, ``MIFS``);
- :mod:`.spectral`: spectral methods (``MDDM-proj``, ``MDDM-spc``, ``MCLS``);
- :mod:`.relief`: instance-based (``RF-ML``);
- :mod:`.global_it`: global information-theoretic rankings (``GRRO``, ``FIMF``).

Shared conventions (:mod:`._scaling`): the ``scaling`` option applied before
the method, higher score = better, ties by the lowest index, objective per
iteration recorded in :attr:`~mlfs_core.selectors.Ranking.objective_path`.
"""

from __future__ import annotations

from .._spec import MethodSpec
from .global_it import global_it_specs
from .relief import relief_specs
from .sparse import sparse_specs
from .spectral import spectral_specs

__all__ = ["field_specs"]


def field_specs() -> list[MethodSpec]:
    """The specs of the field's baselines, family by family."""
    return [*sparse_specs(), *spectral_specs(), *relief_specs(), *global_it_specs()]

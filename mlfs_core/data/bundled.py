"""Where the bundled sample dataset is, in a checkout and in an installed wheel.

The sample (``planted.arff``, ``planted.xml``, ``planted_truth.json`` and the
precomputed ``results/``) sits in ``sample_data/`` at the top of a checkout,
beside the ``mlfs_core`` package. A wheel ships the same folder inside the
package, as ``mlfs_core/sample_data/``. :data:`SAMPLE_DIR` is whichever of
the two holds the data.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SAMPLE_ARFF", "SAMPLE_DIR", "SAMPLE_NAME", "sample_dir"]

SAMPLE_NAME = "sample"
"""The name that stands for the bundled sample (CLI arguments, config paths)."""

_PACKAGE = Path(__file__).resolve().parents[1]


def sample_dir() -> Path:
    """The folder holding the bundled sample.

    Returns
    -------
    Path
        ``mlfs_core/sample_data`` in an installed wheel, else the checkout's
        top-level ``sample_data`` (returned even if it is missing, so that an
        error names the expected place).

    Examples
    --------
    >>> (sample_dir() / "planted.arff").is_file()
    True
    """
    installed = _PACKAGE / "sample_data"
    if (installed / "planted.arff").is_file():
        return installed
    return _PACKAGE.parent / "sample_data"


SAMPLE_DIR = sample_dir()
"""The bundled sample's folder (see :func:`sample_dir`)."""

SAMPLE_ARFF = SAMPLE_DIR / "planted.arff"
"""The bundled sample's ARFF file (its label XML is beside it)."""

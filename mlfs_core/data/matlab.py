"""MATLAB ``.mat`` datasets (read with :func:`scipy.io.loadmat`).

Two layouts are recognised:

* ``data`` (N x M) and ``target``;
* ``train_data`` / ``test_data`` (N x M) with ``train_target`` / ``test_target``;
  the union is returned with the split kept (train rows first).

Targets may be q x N or N x q: the orientation whose sample axis matches the number
of data rows is used; when both match (q == N) q x N is assumed, the convention of
the Mulan/MLKNN ``.mat`` files. Target values must be in {0, 1} or {-1, +1}
(-1 is read as 0). MATLAB v7.3 (HDF5) files are not supported.
"""

from __future__ import annotations

import io

import numpy as np
import scipy.sparse as sp

from ..errors import DatasetError
from ._text import Source, read_bytes, source_name


def read_mat(source: Source) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray | None]:
    """Return ``(X, Y, split)`` from a ``.mat`` file; ``split`` is None without one.

    Examples
    --------
    >>> import scipy.io
    >>> buffer = io.BytesIO()
    >>> scipy.io.savemat(buffer, {"data": np.eye(3), "target": [[1, -1, 1]]})
    >>> X, Y, split = read_mat(buffer.getvalue())
    >>> X.shape, Y.ravel().tolist(), split
    ((3, 3), [1, 0, 1], None)
    """
    where = source_name(source)
    content = _load(source, where)
    if "data" in content and "target" in content:
        X = _matrix(content["data"], where, "data")
        return X, _targets(content["target"], X.shape[0], where, "target"), None
    parts = ("train_data", "test_data", "train_target", "test_target")
    if all(key in content for key in parts):
        X_train = _matrix(content["train_data"], where, "train_data")
        X_test = _matrix(content["test_data"], where, "test_data")
        if X_train.shape[1] != X_test.shape[1]:
            raise DatasetError(f"{where}: train_data and test_data differ in columns")
        Y_train = _targets(
            content["train_target"], X_train.shape[0], where, "train_target"
        )
        Y_test = _targets(content["test_target"], X_test.shape[0], where, "test_target")
        if Y_train.shape[1] != Y_test.shape[1]:
            raise DatasetError(
                f"{where}: train_target and test_target differ in labels"
            )
        split = np.repeat(
            np.array([0, 1], dtype=np.int8), [X_train.shape[0], X_test.shape[0]]
        )
        return (
            sp.vstack([X_train, X_test], format="csr"),
            np.vstack([Y_train, Y_test]),
            split,
        )
    keys = sorted(k for k in content if not k.startswith("__"))
    raise DatasetError(
        f"{where}: expected variables data/target or train_data/test_data/train_target/"
        f"test_target, found {keys}"
    )


def _load(source: Source, where: str) -> dict:
    import scipy.io  # here: a load of any other format never pays for it

    from .limits import check_mat_budget

    data = read_bytes(source)
    try:
        declared = scipy.io.whosmat(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - loadmat below names the problem
        declared = []
    check_mat_budget(declared, where)  # before anything is allocated
    try:
        return scipy.io.loadmat(io.BytesIO(data))
    except NotImplementedError:
        raise DatasetError(
            f"{where}: MATLAB v7.3 files are not supported; save with -v7"
        )
    except DatasetError:
        raise
    except Exception as exc:  # scipy raises many types on corrupt files
        raise DatasetError(f"{where}: not a readable .mat file ({exc})") from None


def _matrix(value, where: str, key: str) -> sp.csr_matrix:
    try:
        X = sp.csr_matrix(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise DatasetError(
            f"{where}: variable {key!r} is not a numeric matrix ({exc})"
        ) from None
    if X.ndim != 2 or X.shape[0] == 0:
        raise DatasetError(f"{where}: variable {key!r} has no rows")
    if X.shape[1] == 0:
        raise DatasetError(f"{where}: variable {key!r} has zero features")
    if not np.isfinite(X.data).all():
        raise DatasetError(
            f"{where}: variable {key!r} holds NaN or infinite values; "
            "missing values are "
            "not supported, impute them before loading"
        )
    return X


def _targets(value, n_rows: int, where: str, key: str) -> np.ndarray:
    T = value.toarray() if sp.issparse(value) else np.asarray(value)
    if T.ndim != 2 or not np.issubdtype(T.dtype, np.number):
        raise DatasetError(f"{where}: variable {key!r} is not a numeric 2-D matrix")
    if T.shape[1] == n_rows:
        T = T.T
    elif T.shape[0] != n_rows:
        raise DatasetError(
            f"{where}: variable {key!r} has shape {T.shape}, "
            f"no axis matches {n_rows} samples"
        )
    if not (np.isin(T, (0, 1)).all() or np.isin(T, (-1, 1)).all()):
        raise DatasetError(
            f"{where}: variable {key!r} must hold values in {{0,1}} or {{-1,+1}}"
        )
    if T.shape[1] == 0:
        raise DatasetError(f"{where}: variable {key!r} has zero labels")
    return (T == 1).astype(np.int8)

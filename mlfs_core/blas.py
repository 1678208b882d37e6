"""The BLAS kernel the engine computes under: pinning it, and recording it.

OpenBLAS picks a kernel (Haswell, SkylakeX, Zen, ...) for the CPU it runs on when
it loads, and the kernel fixes the summation order of ``ddot``, ``daxpy`` and
``dnrm2``. scikit-learn's LIBLINEAR primal solver and its L-BFGS logistic
regression call those routines, so the same fit on two CPUs can differ in the
last bits, and a selection threshold or an F1 can then differ visibly. Every
other value the engine computes is independent of the kernel (integer counts,
exact rational CS, BLAS-free distances); ``tests/core/platform`` checks this by
rerunning a battery of computations under several kernels.

The rule, so that results are the same on every x86-64 CPU with AVX2:

- The engine computes under one documented kernel, :data:`DEFAULT_KERNEL`
  (``Haswell``, which every x86-64 CPU with AVX2 and FMA runs, AMD's included).
- :func:`pin` writes ``OPENBLAS_CORETYPE`` into the environment. It runs when
  :mod:`mlfs_core` is imported, which is early enough when nothing has imported
  numpy yet (the ``mlfs`` command, ``python -m mlfs_core``, ``mlfs app``), and
  every worker process (joblib/loky, Dask ``LocalCluster``) inherits it.
- A process whose BLAS loaded before the pin (numpy imported before
  :mod:`mlfs_core`) is detected with :func:`kernel_matches`; the runner then
  sends the fits whose classifier depends on the kernel to a pinned worker
  process instead of computing them in place.
- ``MLFS_BLAS_KERNEL`` overrides the kernel: another OpenBLAS core name, or
  ``native`` to leave OpenBLAS (and a user's own ``OPENBLAS_CORETYPE``) alone.
  This environment variable is read once, by :func:`pin`, and nowhere else.
- A CPU that cannot run the pinned kernel (no AVX2, or not x86-64) is not pinned;
  its kernel is recorded with every result, and goes into the cache key of every
  kernel-dependent task, so such values are never mistaken for pinned ones.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import MutableMapping
from functools import lru_cache

DEFAULT_KERNEL = "Haswell"
OVERRIDE = "MLFS_BLAS_KERNEL"
NATIVE = "native"
CORETYPE = "OPENBLAS_CORETYPE"
DEFAULT_KERNEL_ID = "openblas/Haswell"
"""The :func:`kernel_id` of a process pinned to :data:`DEFAULT_KERNEL`."""

# CPU flags (as /proc/cpuinfo spells them) each OpenBLAS x86-64 kernel needs.
KERNEL_FLAGS: dict[str, frozenset[str]] = {
    "Prescott": frozenset({"pni"}),
    "Nehalem": frozenset({"pni", "ssse3", "sse4_2"}),
    "SandyBridge": frozenset({"avx"}),
    "Haswell": frozenset({"avx2", "fma"}),
    "Zen": frozenset({"avx2", "fma"}),
    "SkylakeX": frozenset({"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"}),
    "Cooperlake": frozenset(
        {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd", "avx512_bf16"}
    ),
}

_state: dict[str, str | None] = {"requested": None, "pinned": None}


@lru_cache(maxsize=1)
def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags, from ``/proc/cpuinfo`` (empty where unreadable).

    Returns
    -------
    frozenset of str
    """
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return frozenset()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def cpu_supports(kernel: str) -> bool:
    """Whether this CPU can run the OpenBLAS kernel named ``kernel``.

    Parameters
    ----------
    kernel : str
        An OpenBLAS core name, as ``OPENBLAS_CORETYPE`` takes it (case-insensitive).

    Returns
    -------
    bool
        False for a name not in :data:`KERNEL_FLAGS`, or on a CPU that is not
        x86-64 or lacks one of the kernel's instructions.

    Examples
    --------
    >>> cpu_supports("NoSuchKernel")
    False
    """
    need = {k.lower(): v for k, v in KERNEL_FLAGS.items()}.get(kernel.lower())
    return need is not None and need <= cpu_flags()


def pin(environ: MutableMapping[str, str] | None = None) -> str | None:
    """Pin OpenBLAS's kernel for this process (if BLAS is not loaded) and its children.

    Parameters
    ----------
    environ : mutable mapping, optional
        The environment to read ``MLFS_BLAS_KERNEL`` from and write
        ``OPENBLAS_CORETYPE`` to; default ``os.environ``.

    Returns
    -------
    str or None
        The kernel pinned, or None where nothing was pinned (``native``, or a
        CPU that cannot run the kernel asked for).
    """
    env = os.environ if environ is None else environ
    requested = env.get(OVERRIDE, "").strip() or DEFAULT_KERNEL
    pinned = None
    if requested.lower() != NATIVE and cpu_supports(requested):
        env[CORETYPE] = requested
        pinned = requested
    if environ is None:
        _state.update(requested=requested, pinned=pinned)
    return pinned


def pinned_kernel() -> str | None:
    """The kernel :func:`pin` chose when :mod:`mlfs_core` was imported, or None.

    Returns
    -------
    str or None
    """
    return _state["pinned"]


def pinned_environment() -> dict[str, str]:
    """Environment variables a new process needs to compute under the pinned kernel.

    Returns
    -------
    dict
        ``{"OPENBLAS_CORETYPE": kernel}``, or empty when nothing is pinned.
    """
    kernel = pinned_kernel()
    return {} if kernel is None else {CORETYPE: kernel}


def blas_info() -> list[dict[str, str]]:
    """The BLAS libraries loaded in this process, with version and kernel.

    Imports numpy and scipy's BLAS first, so that both libraries are listed.

    Returns
    -------
    list of dict
        One dict per library with keys ``library`` (``openblas``, ``mkl``, ...),
        ``prefix`` (the shared object's name), ``version`` and ``kernel``
        (OpenBLAS's architecture, or ``""`` where the library does not say).
    """
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_info

    rows = []
    for lib in threadpool_info():
        if lib.get("user_api") != "blas":
            continue
        rows.append(
            {
                "library": str(lib.get("internal_api", "")),
                "prefix": str(lib.get("prefix", "")),
                "version": str(lib.get("version") or ""),
                "kernel": str(lib.get("architecture") or ""),
            }
        )
    return sorted(rows, key=lambda r: (r["prefix"], r["version"]))


@lru_cache(maxsize=1)
def kernel_id() -> str:
    """One string naming the BLAS this process computes with, e.g. ``openblas/Haswell``.

    Returns
    -------
    str
        The distinct ``library/kernel`` pairs of :func:`blas_info`, joined by
        ``+`` (several libraries may agree on one pair). Taken once per
        process: a library's kernel is fixed when it loads.
    """
    pairs = sorted({f"{r['library']}/{r['kernel'] or '?'}" for r in blas_info()})
    return "+".join(pairs) or "none"


@lru_cache(maxsize=1)
def expected_kernel_id() -> str | None:
    """The :func:`kernel_id` a pinned process has, or None when nothing is pinned.

    Returns
    -------
    str or None
    """
    kernel = pinned_kernel()
    if kernel is None:
        return None
    libs = sorted({r["library"] for r in blas_info()})
    if libs != ["openblas"]:
        return None
    return f"openblas/{_canonical(kernel)}"


def _canonical(kernel: str) -> str:
    # OpenBLAS reports some cores under the name of the kernel they share.
    return {
        "zen": "Haswell",
        "cooperlake": "SkylakeX",
        "sandybridge": "Sandybridge",
        "prescott": "Katmai",
    }.get(kernel.lower(), kernel)


def kernel_matches() -> bool:
    """Whether this process's BLAS runs the pinned kernel (True when none is pinned).

    Returns
    -------
    bool
    """
    expected = expected_kernel_id()
    return expected is None or kernel_id() == expected


def blas_loaded() -> bool:
    """Whether numpy (and with it OpenBLAS) is already imported in this process.

    Returns
    -------
    bool
    """
    return "numpy" in sys.modules


def record() -> dict[str, object]:
    """What to store beside a result set: the kernel rule and the libraries.

    Returns
    -------
    dict
        ``kernel`` (:func:`kernel_id`), ``pinned`` (the pinned kernel or None),
        ``matches_pin`` and ``libraries`` (:func:`blas_info`).
    """
    return {
        "kernel": kernel_id(),
        "pinned": pinned_kernel(),
        "matches_pin": kernel_matches(),
        "libraries": blas_info(),
    }

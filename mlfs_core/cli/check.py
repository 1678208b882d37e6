"""``mlfs check-plugin FILE|MODULE``: check what a plug-in registers."""

from __future__ import annotations

import argparse
import sys


def _check_plugin_command(args: argparse.Namespace) -> int:
    """Print one line per registered item; exit 1 if any failed a check."""
    from ..plugin_check import check_plugin

    rows = check_plugin(args.spec)
    for r in rows:
        status = "ok" if r.ok else "FAILED"
        print(f"{r.kind} {r.name!r}: {status}")
        print(f"  signature: {r.signature}")
        if r.shape:
            print(f"  output: {r.shape}")
            print(f"  finite: {'yes' if r.finite else 'NO'}")
            print(f"  deterministic: {'yes' if r.deterministic else 'NO'}")
            print(f"  time: {r.seconds * 1000:.1f} ms")
        if r.problem:
            print(f"  problem: {r.problem}")
    failed = sum(not r.ok for r in rows)
    summary = f"{len(rows) - failed} of {len(rows)} passed"
    print(summary, file=sys.stderr)
    return 1 if failed else 0


def add_check_parser(sub) -> None:
    """Add ``check-plugin`` to argparse ``sub``."""
    p = sub.add_parser(
        "check-plugin",
        help="run each method, classifier and metric a plug-in registers on a "
        "tiny generated dataset: signature, output shape, finiteness, "
        "determinism and speed",
    )
    p.add_argument("spec", help="the plug-in: a .py file or a module name")
    p.set_defaults(func=_check_plugin_command)

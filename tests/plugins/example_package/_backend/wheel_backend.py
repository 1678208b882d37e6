"""A minimal PEP 517 build backend (standard library only) for the example plug-in.

It builds a pure-Python wheel of the one package beside ``pyproject.toml``
(the ``[project]`` name with ``-`` turned into ``_``), with its metadata and
entry points, so the tests can ``pip install`` it without network or
setuptools. Not meant for anything else.
"""

from __future__ import annotations

import base64
import hashlib
import sys
import zipfile
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]


def _dist_name(project: dict) -> str:
    return project["name"].replace("-", "_")


def _metadata_files(project: dict) -> dict[str, str]:
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '')}",
        *(f"Requires-Dist: {d}" for d in project.get("dependencies", [])),
    ]
    points = []
    for group, entries in project.get("entry-points", {}).items():
        points.append(f"[{group}]")
        points += [f"{name} = {value}" for name, value in entries.items()]
    wheel = [
        "Wheel-Version: 1.0",
        "Generator: wheel_backend",
        "Root-Is-Purelib: true",
        "Tag: py3-none-any",
    ]
    return {
        "METADATA": "\n".join(metadata) + "\n",
        "WHEEL": "\n".join(wheel) + "\n",
        "entry_points.txt": "\n".join(points) + "\n",
    }


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{name},sha256={digest.decode()},{len(data)}"


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    project = _project()
    dist = _dist_name(project)
    info = f"{dist}-{project['version']}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted((ROOT / dist).rglob("*.py")):
        files[path.relative_to(ROOT).as_posix()] = path.read_bytes()
    for name, text in _metadata_files(project).items():
        files[f"{info}/{name}"] = text.encode("utf-8")
    record = [_record_line(name, data) for name, data in files.items()]
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    wheel_name = f"{dist}-{project['version']}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel_name

"""The user guide's lesson gallery is made from the bundled lesson files."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location(
        "lessons_screenshots", ROOT / "docs" / "lessons_screenshots.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gallery_matches_the_lesson_files():
    """Check the guide's gallery is what the script writes from the lesson
    files now (notes, questions, views), and names a screenshot per step that
    exists, 1280 x 720."""
    from PIL import Image

    from mlfs_core.lessons import bundled_lessons, read_lesson

    script = _script()
    text = script.GUIDE.read_text()
    inside = text.split(script.BEGIN)[1].split(script.END)[0]
    assert inside.strip() == script.gallery().strip()
    for name, path in bundled_lessons().items():
        for number, step in enumerate(read_lesson(path).steps, start=1):
            assert step.note in inside and step.question in inside
            shot = (
                ROOT / "docs" / "screenshots" / "lessons" / name / f"step{number}.png"
            )
            assert Image.open(shot).size == (1280, 720), shot
            assert shot.stat().st_size < 200_000, shot

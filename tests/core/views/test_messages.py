"""Tests of mlfs_core.views.messages: loader messages in the upload form's words."""

from __future__ import annotations

import pytest

from mlfs_core.data import load_dataset
from mlfs_core.errors import DatasetError
from mlfs_core.views import UPLOAD_FORM_HINT, upload_form_words

ARFF = "@relation r\n@attribute a {0,1}\n@attribute b {0,1}\n@attribute c numeric\n"


def test_a_file_without_label_information_names_the_forms_boxes(tmp_path):
    """Check the loader's "pass labels=, ..." becomes the form's box names."""
    path = tmp_path / "x.arff"
    path.write_text(ARFF + "@data\n1,0,0.5\n0,1,0.25\n", encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        load_dataset(path)
    words = upload_form_words(str(caught.value))
    assert UPLOAD_FORM_HINT in words and "label_count=" not in words


@pytest.mark.parametrize(("count", "end"), [(-3, "last"), (2, "first")])
def test_the_ambiguous_count_advice_names_the_count_and_the_end(count, end):
    """Check "pass label_count=N (or the Mulan XML)" in the form's words."""
    message = f"f.arff: ... pass label_count={count} (or the Mulan XML)"
    assert upload_form_words(message) == (
        f'f.arff: ... set "Label count" to {abs(count)} with "Labels are the" '
        f"{end} attributes (or upload the Mulan XML too)"
    )


def test_other_messages_pass_unchanged():
    """Check a message without API advice is left as it is."""
    message = "x.csv: 3 rows, no labels"
    assert upload_form_words(message) == message

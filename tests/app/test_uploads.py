"""AppTest tests of dataset uploads (issue 13, item 4) and their storage (issue 14)."""

from __future__ import annotations

import os
import time

from .conftest import TOY_XML, new_app, toy_arff, upload

# Mulan layout (labels last, binary words first) with MEKA's '-C 3' in the
# relation name, as langlog: its ARFF alone silently took 3 words as labels.
_ARFF = toy_arff(seed=5)


def _binary_words(text: str) -> str:
    """Clip every word count of a toy ARFF to 0/1 (labels stay as they are)."""
    head, data = text.split("@data\n")
    rows = []
    for row in data.splitlines():
        values = row.split(",")
        rows.append(",".join([str(min(int(v), 1)) for v in values]))
    return head + "@data\n" + "\n".join(rows) + "\n"


LANGLOG_LIKE = _binary_words(
    _ARFF.replace("@relation toy", "@relation 'llog: -C 3'").replace("numeric", "{0,1}")
)
NO_LABELS = toy_arff(seed=6)  # relation 'toy': no -C, no XML


def _uploader(at):
    return next(u for u in at.file_uploader if u.key.startswith("upload_files"))


def test_uploader_keeps_the_files_after_a_failure_and_is_emptied_after_success():
    """Check the retry: after "no way to tell which attributes are labels" the
    files stay, the label fields come below the message, and Load with "Label
    count" filled in loads them; after a success the uploader is emptied, so a
    second dataset does not fail with "several dataset files"."""
    at = new_app()
    upload(at, [("a.arff", NO_LABELS.encode(), "text/plain")])
    assert at.error and "no way to tell" in at.error[0].value
    assert [f.name for f in _uploader(at).value] == ["a.arff"]  # kept for the retry
    (box,) = [e for e in at.expander if e.label == "Load your own dataset"]
    order = [node.type for node in box.children.values()]
    assert order.index("error") < order.index("flex_container")  # fields below
    at.number_input(key="upload_label_count").set_value(3).run()
    at.radio(key="upload_label_end").set_value("last").run()
    at.button(key="load_upload").click().run()
    assert not at.error, [e.value for e in at.error]
    assert at.session_state["dataset"] == "a (upload)"
    assert not _uploader(at).value  # emptied after the success
    upload(
        at,
        [("up.arff", toy_arff(seed=3).encode(), "text/plain"),
         ("up.xml", TOY_XML.encode(), "text/xml")],
        upload_label_count=0,
    )  # fmt: skip
    assert not at.error and at.session_state["dataset"] == "up (upload)"
    upload(at, [("other.csv", b"w,y\n1,1\n0,0\n2,1\n", "text/csv")], upload_labels="y")
    assert not at.exception and not at.error
    assert at.session_state["dataset"] == "other (upload)"


def test_a_csv_with_a_text_column_is_told_so_by_name():
    """Check: a text feature column is named as text, not "missing values"."""
    at = new_app()
    csv = b"id,w,y\nab,1,1\ncd,0,0\nef,2,1\n"
    upload(at, [("t.csv", csv, "text/csv")], upload_labels="y")
    (message,) = [e.value for e in at.error]
    assert "column 'id' holds text" in message and "line 2" in message
    assert "missing values" not in message
    upload(at, [("m.csv", b"w,y\n,1\n1,0\n", "text/csv")], upload_labels="y")
    assert "missing values are not supported" in at.error[0].value


def test_the_last_n_attributes_can_be_the_labels():
    """Check "Label count" 3 with "last attributes" takes l0, l1, l2 (not words)."""
    at = new_app()
    upload(
        at,
        [("nolab.arff", NO_LABELS.encode(), "text/plain")],
        upload_label_count=3,
        upload_label_end="last",
    )
    assert not at.error, [e.value for e in at.error]
    assert at.success[0].value.endswith("Labels (q = 3): l0, l1, l2; 12 features.")
    upload(
        at,
        [("nolab.arff", NO_LABELS.encode(), "text/plain")],
        upload_label_count=3,
        upload_label_end="first",
    )
    # the first three are word counts, not 0/1: an error naming the attribute
    assert "label attribute 'w0' has value 2, expected 0 or 1" in at.error[0].value
    assert at.error[0].value.startswith("Could not read the upload: nolab.arff, line")


def test_meka_c_without_xml_warns_in_the_forms_words():
    """Check the langlog case: -C 3 on a labels-last ARFF is flagged, not silent."""
    at = new_app()
    upload(at, [("llog.arff", LANGLOG_LIKE.encode(), "text/plain")])
    assert not at.exception and not at.error
    assert "Labels (q = 3): w0, w1, w2" in at.success[0].value  # what -C said
    (warning,) = [w.value for w in at.warning if "0/1 as well" in w.value]
    assert warning.startswith("llog.arff: the labels were taken as the first 3")
    assert 'set "Label count" to 3 with "Labels are the" last attributes' in warning
    assert "label_count=" not in warning


def test_arff_and_xml_with_different_stems_load_together():
    """Check that Corel5k-sparse.arff + Corel5k.xml pair."""
    at = new_app()
    upload(
        at,
        [("Corel5k-sparse.arff", toy_arff(seed=2).encode(), "text/plain"),
         ("Corel5k.xml", TOY_XML.encode(), "text/xml")],
    )  # fmt: skip
    assert not at.exception and not at.error
    assert at.success[0].value == (
        "Loaded Corel5k-sparse (upload). Labels (q = 3): l0, l1, l2; 12 features."
    )


def test_messages_name_the_uploaded_file_and_the_widgets(tmp_path):
    """Check: no server path in the message, and widget names, not API names."""
    at = new_app()
    upload(at, [("mine.arff", NO_LABELS.encode(), "text/plain")])
    message = at.error[0].value
    assert message.startswith("Could not read the upload: mine.arff: no way to tell")
    assert str(tmp_path) not in message and "uploads" not in message
    assert '"Label names", "Label count"' in message and "labels=" not in message


def test_the_data_page_says_which_attributes_are_labels(data_dir):
    """Check the caption naming the label attributes of any loaded dataset."""
    at = new_app()
    at.selectbox(key="dataset").select("toy").run()
    captions = [c.value for c in at.caption]
    assert "Labels (q = 3): l0, l1, l2; 12 features." in captions


def test_uploads_are_kept_within_the_quota_least_recently_used_first(
    tmp_path, monkeypatch
):
    """Check that saving over a session's quota removes its oldest-used uploads."""
    from ui import datasets

    monkeypatch.setenv("MLFS_UPLOAD_QUOTA_MB", str(2.5 * 1000 / 1024 / 1024))
    blob, me = b"x" * 1000, "0123456789abcdef_-ABCDEF"  # a workspace token
    a = datasets.save_upload([("a.csv", blob)], session=me)
    b = datasets.save_upload([("b.csv", blob)], session=me)
    past = time.time() - 100
    os.utime(b, (past, past))  # b is now the least recently used
    datasets.touch_upload(a)
    c = datasets.save_upload([("c.csv", blob)], session=me)
    kept = {p.name for p in datasets.uploads_dir(me).iterdir()}
    assert kept == {os.path.basename(a), os.path.basename(c)}
    assert datasets.upload_quota() == 2500
    # the upload just saved is never removed, even alone over the quota
    big = datasets.save_upload([("big.csv", b"y" * 5000)], session=me)
    assert os.path.isdir(big)

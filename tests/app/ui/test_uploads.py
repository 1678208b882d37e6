"""AppTest tests of dataset uploads (issue 13, item 4) and their storage (issue 14)."""

from __future__ import annotations

import os
import time

from ..conftest import TOY_XML, new_app, toy_arff, upload

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


def _label_fields(at) -> tuple:
    return (
        at.text_input(key="upload_labels").value,
        at.number_input(key="upload_label_count").value,
        at.radio(key="upload_label_end").value,
        at.text_input(key="upload_label_prefix").value,
    )


def test_emotions_and_its_xml_fill_in_the_label_fields(shared_datasets):
    """Check issue 54, item 8: on choosing emotions.arff + emotions.xml the
    form says where the XML puts the labels and fills in "6, last" (not
    "first") before Load; Load takes the XML's six labels; the fields rest
    afterwards."""
    at = new_app()
    folder = shared_datasets / "emotions"
    files = [
        ("emotions.arff", (folder / "emotions.arff").read_bytes(), "text/plain"),
        ("emotions.xml", (folder / "emotions.xml").read_bytes(), "text/xml"),
    ]
    _uploader(at).set_value(files).run()
    assert not at.exception and not at.error
    (info,) = [i.value for i in at.info if i.value.startswith("Labels from")]
    assert info.startswith(
        "Labels from emotions.xml: 6 labels, the last 6 attributes of emotions.arff."
    )
    assert _label_fields(at) == ("", 6, "last", "")
    at.button(key="load_upload").click().run()
    assert not at.error, [e.value for e in at.error]
    assert at.success[0].value == (
        "Loaded emotions (upload). Labels (q = 6): amazed-suprised, happy-pleased, "
        "relaxing-calm, quiet-still, sad-lonely, angry-aggresive; 72 features."
    )
    spec = at.session_state["uploads"]["emotions (upload)"]
    assert set(spec) == {"dir"}  # left as filled in: the XML decides, by name
    assert _label_fields(at) == ("", 0, "first", "")  # at rest for the next upload
    assert not [i for i in at.info if i.value.startswith("Labels from")]


def test_an_xml_of_another_dataset_is_named_with_its_missing_label(shared_datasets):
    """Check a mismatched XML: one error, before Load, naming the XML, the
    label not found and the ARFF; the fields stay at rest."""
    at = new_app()
    files = [
        ("emotions.arff", (shared_datasets / "emotions/emotions.arff").read_bytes(),
         "text/plain"),
        ("emotions.xml", (shared_datasets / "yeast/yeast.xml").read_bytes(),
         "text/xml"),
    ]  # fmt: skip
    _uploader(at).set_value(files).run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "Could not tell the labels: emotions.xml: label 'Class1' is not an attribute "
        "of emotions.arff (nor are 13 more of its 14 labels); is this the XML of "
        "that ARFF?"
    ]
    assert _label_fields(at) == ("", 0, "first", "")


def test_a_meka_count_fills_the_fields_and_a_change_is_the_user_s_choice():
    """Check the langlog case: -C 3 fills "3, first" and the note that the
    last three are two-valued too; switching to "last" loads l0..l2 (the
    user's choice is passed), with no ambiguity warning."""
    at = new_app()
    _uploader(at).set_value([("llog.arff", LANGLOG_LIKE.encode(), "text/plain")]).run()
    (info,) = [i.value for i in at.info if i.value.startswith("Labels from")]
    assert info.startswith(
        "Labels from the relation name of llog.arff (-C 3): 3 labels, the first 3 "
        "attributes of llog.arff. Check them: the last 3 attributes are two-valued"
    )
    assert _label_fields(at) == ("", 3, "first", "")
    at.radio(key="upload_label_end").set_value("last").run()
    at.button(key="load_upload").click().run()
    assert not at.error and not [w for w in at.warning if "0/1 as well" in w.value]
    assert at.success[0].value.endswith("Labels (q = 3): l0, l1, l2; 12 features.")
    assert at.session_state["uploads"]["llog (upload)"]["label_count"] == -3


def test_files_that_declare_nothing_leave_the_user_s_fields_alone():
    """Check no note and no change of the fields the user filled in when the
    files declare no labels (an ARFF without XML or -C)."""
    at = new_app()
    at.text_input(key="upload_labels").set_value("l0, l2").run()
    _uploader(at).set_value([("n.arff", NO_LABELS.encode(), "text/plain")]).run()
    assert not [i for i in at.info if i.value.startswith("Labels from")]
    assert _label_fields(at) == ("l0, l2", 0, "first", "")

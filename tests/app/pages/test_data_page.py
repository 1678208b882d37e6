"""AppTest tests of the Data page."""

from __future__ import annotations

from ..conftest import TOY_XML, charts, new_app, open_page, toy_arff, upload


def test_default_page_shows_sample_statistics():
    """Check that the app opens on the Data page with the sample's Table 3 row."""
    at = new_app()
    assert at.title[0].value == "Data"
    table = at.dataframe[0].value
    assert list(table.columns) == ["Name", "N", "M", "q", "LC", "LD", "DC"]
    assert table["N"].iloc[0] > 0 and not at.error
    assert len(charts(at)) == 2


def test_choosing_a_dataset_from_the_data_folder(data_dir):
    """Check that a dataset of MLFS_DATA_DIR can be chosen and its stats shown."""
    at = new_app()
    at.selectbox(key="dataset").select("toy").run()
    assert not at.exception
    row = at.dataframe[0].value.iloc[0]
    assert (row["Name"], row["N"], row["M"], row["q"]) == ("toy", 60, 12, 3)
    heat = charts(at)[1]
    assert '"heatmap"' in heat.proto.spec and '"l2"' in heat.proto.spec


def test_upload_arff_and_xml_becomes_the_current_dataset():
    """Check that an uploaded ARFF + XML pair loads, is selected and shows stats."""
    at = new_app()
    files = [
        ("up.arff", toy_arff(seed=3).encode(), "text/plain"),
        ("up.xml", TOY_XML.encode(), "text/xml"),
    ]
    upload(at, files)
    assert not at.exception and not at.error
    assert at.session_state["dataset"] == "up (upload)"
    assert at.dataframe[0].value["N"].iloc[0] == 60
    assert at.success[0].value == (
        "Loaded up (upload). Labels (q = 3): l0, l1, l2; 12 features."
    )
    open_page(at, "rank")
    assert at.selectbox(key="dataset").value == "up (upload)"


def test_bad_upload_shows_an_error_and_keeps_the_dataset():
    """Check that a broken file gives st.error naming the problem, not an exception."""
    at = new_app()
    upload(at, [("bad.arff", b"@relation x\n@attribute a numeric\n", "text/plain")])
    assert not at.exception
    assert at.error and at.error[0].value.startswith("Could not read the upload")
    assert at.session_state["dataset"] == "sample (planted)"
    assert at.dataframe  # the previous dataset is still shown


def test_odd_labels_are_warned_about(tmp_path, monkeypatch):
    """Check that a never-positive label and label-less samples show st.warning."""
    folder = tmp_path / "odd" / "odd"
    folder.mkdir(parents=True)
    lines = toy_arff().splitlines()
    data = lines.index("@data")
    rows = [
        r.rsplit(",", 3)[0] + ",0,0,0" if i % 2 else r.rsplit(",", 1)[0] + ",0"
        for i, r in enumerate(lines[data + 1 :])
    ]
    (folder / "odd.arff").write_text("\n".join(lines[: data + 1] + rows) + "\n")
    (folder / "odd.xml").write_text(TOY_XML)
    monkeypatch.setenv("MLFS_DATA_DIR", str(folder.parent))
    at = new_app()
    at.selectbox(key="dataset").select("odd").run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert warnings[0].startswith("1 label is never positive: l2.")
    assert "samples carry no label" in warnings[1]
    assert not [e for e in at.expander if "notes on this dataset" in e.label]
    open_page(at, "rank")  # elsewhere the notes sit in a closed expander
    notes = [e for e in at.expander if e.label.endswith("notes on this dataset")]
    assert notes and notes[0].label.startswith(f"{len(warnings)} notes")
    assert any("never positive: l2" in w.value for w in notes[0].warning)

"""Data: pick or upload a dataset; its statistics, label frequencies, co-occurrence."""

import streamlit as st

from mlfs_core.plots import figure_from_dict
from ui import cached, presentation, uploads, widgets

st.title("Data")
# presentation mode: the label frequencies right under the title, the upload
# form and the statistics in an expander under it; else as usual
chart_area, options = presentation.chart_first("Load a dataset, its statistics")
name, key = widgets.current_dataset()
with options:
    st.caption("Choose a dataset in the sidebar, or load your own below.")
    uploads.upload_form()

# the dataset's notes: under the upload form as usual, under the chart and
# the expander when presenting
with st.container() if presentation.is_on() else options:
    loaded = widgets.load_or_error(key, notes_expanded=True)
if loaded:
    with options:
        st.subheader(
            f"Statistics of {name} (as in Spolaôr and Tsoumakas (2013), Table 3)"
        )
        st.dataframe(uploads.stats_table(name, cached.stats(key)), hide_index=True)
        _, features, labels = cached.names(key)
        st.caption(uploads.label_summary(labels, len(features)))
    freq = cached.label_frequency(key)
    across = presentation.bars_across(len(freq))  # each label named, apart
    bars, heat = cached.data_figures(key, across, presentation.heatmap_labels())
    with chart_area:
        widgets.show_figure(
            figure_from_dict(bars),
            freq,
            key="labelfreq",
            filename="label_frequency",
            main=not across,  # as tall as its rows need
        )
    co = cached.label_cooccurrence(key)
    widgets.show_figure(
        figure_from_dict(heat),
        co.reset_index(names="label"),
        key="cooc",
        filename="label_cooccurrence",
    )

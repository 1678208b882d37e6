"""About: what each method does, in a sentence, and the publications it comes from."""

import streamlit as st

from mlfs_core.selectors import families
from ui.sections import about, methods

plugins = methods.server_plugins()
st.title("About MLFS Explorer")
st.markdown(about.INTRO)
for family, title in families():  # the registry's titles
    st.subheader(title)
    # st.table wraps long text; a data grid would cut the descriptions off
    st.table(about.method_table(family).set_index("Method"))
st.subheader("Metrics")
st.table(about.metric_table().set_index("Metric"))
st.caption(
    "Coverage error is scikit-learn's: Zhang & Zhou's (and Mulan's) coverage + 1. "
    "A sample with no true label counts 0 for coverage and ranking loss, 1 for "
    "average precision and 0 (correct) for one-error."
)
st.subheader("Plug-ins")
st.markdown(about.PLUGINS_NOTE)
if plugins:
    st.markdown(about.plugin_list(plugins))
else:
    st.caption("No plug-in is loaded.")
st.subheader("Rules that decide a number")
st.markdown(about.RULES)
st.subheader("Sources")
st.markdown(about.references())

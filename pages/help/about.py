"""About: what each method does, in a sentence, and the papers it comes from."""

import streamlit as st

from ui import about

st.title("About MLFS Explorer")
st.markdown(about.INTRO)
for family, title in about.families().items():
    st.subheader(title)
    # st.table wraps long text; a data grid would cut the descriptions off
    st.table(about.method_table(family).set_index("Method"))
st.subheader("Papers")
st.markdown(about.REFERENCES)

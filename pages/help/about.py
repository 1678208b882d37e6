"""About: what each method does, in a sentence, and the papers it comes from."""

import streamlit as st

from ui import about

st.title("About MLFS Explorer")
st.markdown(about.INTRO)
for family, title in about.families().items():
    st.subheader(title)
    st.dataframe(about.method_table(family), hide_index=True)
st.subheader("Papers")
st.markdown(about.REFERENCES)

"""Placeholder."""

import streamlit as st

st.title("similarity")
st.info("Coming soon.")

"""Placeholder."""

import streamlit as st

st.title("experiment")
st.info("Coming soon.")

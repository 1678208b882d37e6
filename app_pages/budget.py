"""Placeholder."""

import streamlit as st

st.title("budget")
st.info("Coming soon.")

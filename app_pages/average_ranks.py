"""Placeholder."""

import streamlit as st

st.title("average_ranks")
st.info("Coming soon.")

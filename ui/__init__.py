"""App-side helpers of the Streamlit app: cached engine calls, session keys, widgets.

Nothing here does statistics: :mod:`ui.cached` wraps :mod:`mlfs_core` calls in
``st.cache_data``; :mod:`ui.state` names the session keys; :mod:`ui.widgets`
holds small reusable rendering helpers.
"""

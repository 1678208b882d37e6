"""App-side helpers of the Streamlit app: cached engine calls, session keys, widgets.

Nothing here does statistics. The modules at this level are shared by every
page: :mod:`ui.cached` wraps :mod:`mlfs_core` calls in ``st.cache_data``;
:mod:`ui.state` names the session keys; :mod:`ui.widgets` holds small reusable
rendering helpers; :mod:`ui.datasets`, :mod:`ui.results`, :mod:`ui.uploads`,
:mod:`ui.tables` and :mod:`ui.warmup` serve the sidebar and several pages.
What only one page (or one group of pages) renders is in :mod:`ui.sections`,
which imports from here and never the other way round.
"""

"""Dataset loading (being written; see issue 2)."""

"""mlfs_core.selectors"""

"""mlfs_core.evaluation"""

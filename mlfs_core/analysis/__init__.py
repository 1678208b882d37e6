"""mlfs_core.analysis"""

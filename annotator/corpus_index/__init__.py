"""A persistent index of a corpus in SQLite, kept in the user's cache folder (never beside the logs):
per log its size, times and content hash, its sessions' browser rows and its turns' texts under
full-text search, and memos of per-file command outputs. Qt-free; docs/search.md.
"""

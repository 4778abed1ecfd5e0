"""Reading a log file securely and losslessly: its encoding, its prolog and the bytes after its root,
fed to libxml2 in chunks; an element's attributes read in one pass whatever their number; and what
happened to the file behind the document's back. Imports writes (an interrupted in-place write is
finished before a file is read)."""

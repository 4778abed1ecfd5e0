"""Markers > Load markers: each marker on a timeline lane and in a column of the Sessions browser.

May import: the shell modules, annotating, corpus, opening and timeline."""

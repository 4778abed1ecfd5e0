"""Annotations outside the log: annotation sets, the annotations CSV and MITRE's human-annotation file, and folding them into a log."""

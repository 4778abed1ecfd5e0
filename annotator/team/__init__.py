"""Team work on one corpus: annotator names, team mode, per-annotator human files, assignment (docs/team.md)."""

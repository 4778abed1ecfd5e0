"""The recovery journal: every unsaved edit kept on disk within two seconds, read back without trusting a
byte of it, and the instance locks that tell which window holds which log. Above the document (log),
which knows nothing of it."""

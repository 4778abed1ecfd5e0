"""Many logs: finding them under folders, scanning sessions, and the session filter language."""

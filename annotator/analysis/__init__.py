"""Figures computed from a loaded log: the Communicator metrics, word alignment, validation and the session summary."""

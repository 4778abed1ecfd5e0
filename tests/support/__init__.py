"""Helpers the test suite shares: builders of logs and corpora, the command run in a child process, key
presses and dialog answers for the GUI tests, scripts run in fresh interpreters. Nothing here is a test (no
module is named test_*), and fixtures stay in the conftest.py nearest to their users; a test imports what
it needs from here, never from another test module or a conftest.py."""

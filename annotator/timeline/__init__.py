"""Qt-free timeline geometry: lanes and intervals built from a session, culling and hit-testing."""

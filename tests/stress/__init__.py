"""The kill loops, run on demand (pyproject.toml's norecursedirs keeps them out of the default run; .ci/run runs
them with a small KILL_LOOP_COUNT). The loops themselves are tests/support/kill_loop.py and journal_kill_loop.py."""

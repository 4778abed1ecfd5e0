"""`python -m annotator` is the same as the `annotator` command."""

import sys

from annotator.cli.main import main

sys.exit(main())

"""``python -m userlore.cli``."""

import sys

from userlore.cli import main

sys.exit(main())

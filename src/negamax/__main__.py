"""``python -m negamax`` is the ``negamax`` command."""

import sys

from negamax.cli.main import main

sys.exit(main())

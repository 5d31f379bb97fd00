"""``python -m data_encoding``: the ``data-encoding`` command (see :mod:`data_encoding.cli`)."""

import sys

from .cli import main

sys.exit(main())

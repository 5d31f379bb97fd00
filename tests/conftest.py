"""Hypothesis profiles, chosen by the ``HYPOTHESIS_PROFILE`` environment variable.

* ``default``: 50 examples per test, no deadline, derandomized so that CI
  runs the same examples every time;
* ``fuzz``: 5000 random examples per test (``make fuzz``).

It also loads the command's ``run`` fixture (``cli_runner.py``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

pytest_plugins = ["cli_runner"]

_QUIET = [HealthCheck.too_slow, HealthCheck.filter_too_much]

# "fuzz" first: a new profile inherits from the loaded one, and once "default"
# is overridden it would inherit its derandomize=True (and no database).
settings.register_profile(
    "fuzz",
    max_examples=5000,
    deadline=None,
    suppress_health_check=_QUIET,
)
settings.register_profile(
    "default",
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=_QUIET,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

"""The settings mypy's Django plugin loads (pyproject.toml, ``[tool.django-stubs]``): the
development settings, whatever the shell's DEBUG, so ``mypy`` needs no deployment's variables."""

import os

os.environ["DEBUG"] = "1"  # only in the mypy process that imports this

from config.settings import *  # noqa: F403

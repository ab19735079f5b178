"""Repair a break: the code a break touches (units.py) and Check on a reader's version of it (check.py).

A break page's "Repair it" section shows the units and runs `check` in the browser; CI runs
the same function on every break's broken and healthy code (tests/test_repair.py).
"""

from .check import Outcome, check, substituted
from .units import Unit, editor_text, healthy_text, split, units

__all__ = ["Outcome", "Unit", "check", "editor_text", "healthy_text", "split", "substituted", "units"]

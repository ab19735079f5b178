"""Small learner-style engines, each written differently from minigrad, each with one planted bug.

The doctor must name the right break first for each (tests/test_doctor_engines.py).
The bugs are written the way a learner would, not as minigrad's diff text.
"""

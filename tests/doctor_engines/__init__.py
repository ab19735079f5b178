"""What is left of the old copies: pow_off_by_one.py, which the doctor page's
browser test pastes into the page as a learner would. The doctor's engines
are tests/learner_engines now: one healthy engine per style, one diff per bug.
"""

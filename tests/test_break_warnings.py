"""The suite's warning rule (pyproject.toml's filterwarnings, tests/break_warnings.py): a broken copy's
warning is the page's lesson and stays quiet here; any other warning fails the test it comes from."""

import warnings

import numpy as np
import pytest
from break_warnings import broken_copy_warnings_expected

from minigrad.breaks import applied


def test_a_warning_nobody_expected_fails_the_test():
    with pytest.raises(UserWarning):
        warnings.warn("nobody expected this")


def _broken_bce_at_a_saturated_logit():
    from minigrad.functional import binary_cross_entropy_with_logits
    from minigrad.tensor import Tensor

    return binary_cross_entropy_with_logits(Tensor(np.array([40.0])), Tensor(np.array([0.0])))


def test_the_broken_copys_warning_is_heard_in_the_run_and_not_by_the_suite():
    with applied("bce-log-of-sigmoid"):
        with warnings.catch_warnings(record=True) as heard:  # what a reader's run sees
            warnings.simplefilter("default")
            _broken_bce_at_a_saturated_logit()
        assert any("divide by zero" in str(w.message) and w.filename.startswith("<broken by bce-log-of-sigmoid>") for w in heard)
        with broken_copy_warnings_expected():  # and under the suite's "error", nothing is raised
            _broken_bce_at_a_saturated_logit()


def test_a_warning_from_healthy_code_inside_a_broken_run_still_fails():
    with pytest.raises(RuntimeWarning, match="divide by zero"):
        with broken_copy_warnings_expected():
            np.log(np.zeros(1))  # this file is no broken copy

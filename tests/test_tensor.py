import numpy as np
import pytest

from minigrad.gradcheck import gradcheck
from minigrad.tensor import Tensor, unbroadcast


def leaf(shape, seed=0):
    return Tensor(np.random.default_rng(seed).normal(size=shape), requires_grad=True)


def test_seed_regime_1_axis_created():
    a = Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    b = Tensor(np.arange(12.0).reshape(4, 3), requires_grad=True)
    (a + b).sum().backward()
    assert a.grad.shape == (3,) and a.grad.tolist() == [4.0, 4.0, 4.0]
    assert b.grad.shape == (4, 3)


def test_seed_regime_2_length_one_axis_expanded():
    a2 = Tensor(np.array([[1.0], [2.0], [3.0]]), requires_grad=True)
    b2 = Tensor(np.ones((3, 5)), requires_grad=True)
    (a2 + b2).sum().backward()
    assert a2.grad.shape == (3, 1) and a2.grad.ravel().tolist() == [5.0, 5.0, 5.0]


def test_seed_non_uniform_loss():
    a2 = Tensor(np.array([[1.0], [2.0], [3.0]]), requires_grad=True)
    b2 = Tensor(np.ones((3, 5)), requires_grad=True)
    ((a2 + b2) * Tensor(np.arange(15).reshape(3, 5))).sum().backward()
    assert a2.grad.ravel().tolist() == [10.0, 35.0, 60.0]


@pytest.mark.parametrize(
    "grad_shape, shape, expected",
    [((4, 3), (3,), (3,)), ((3, 5), (3, 1), (3, 1)), ((2, 3, 4), (), ()), ((2, 3), (1, 1), (1, 1)), ((3,), (3,), (3,))],
)
def test_unbroadcast_shapes(grad_shape, shape, expected):
    g = np.ones(grad_shape)
    out = unbroadcast(g, shape)
    assert out.shape == expected and out.sum() == g.sum()


def test_integer_input_becomes_float64_and_user_array_is_copied():
    raw = np.arange(3)
    t = Tensor(raw)
    assert t.data.dtype == np.float64
    t.data += 1
    assert raw.tolist() == [0, 1, 2]


def test_errors_name_both_shapes():
    with pytest.raises(ValueError, match=r"\(3, 2\) and \(4,\)"):
        Tensor(np.ones((3, 2))) + Tensor(np.ones(4))
    with pytest.raises(ValueError, match=r"\(3, 2\) and \(3, 2\) do not fit"):
        Tensor(np.ones((3, 2))) @ Tensor(np.ones((3, 2)))


def test_backward_on_non_scalar_says_so():
    with pytest.raises(RuntimeError, match=r"shape \(2, 2\)"):
        (leaf((2, 2)) * 2).backward()


def test_repeated_fancy_indices_accumulate():
    x = leaf((4,))
    x[np.array([0, 0, 2])].sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 1.0, 0.0]


def test_grad_only_for_tensors_that_require_it():
    x, c = leaf((2,)), Tensor(np.ones(2))
    (x * c).sum().backward()
    assert c.grad is None and x.grad.shape == (2,)


W = np.random.default_rng(7).normal(size=(3, 4))  # a non-uniform loss weight


@pytest.mark.parametrize(
    "f, shapes",
    [
        (lambda a, b: a + b, [(3, 4), (4,)]),
        (lambda a, b: a * b, [(3, 1), (3, 4)]),
        (lambda a, b: a / (b * b + 1), [(3, 4), (1, 4)]),
        (lambda a, b: a - b, [(), (3, 4)]),
        (lambda a, b: a @ b, [(3, 5), (5, 4)]),
        (lambda a, b: (a @ b).sum(axis=0), [(5,), (2, 5, 4)]),
        (lambda a, b: (a @ b)[:, None], [(3, 5), (5,)]),
        (lambda a, b: a.sum(axis=1, keepdims=True) * b, [(3, 4), (3, 4)]),
        (lambda a, b: a.mean(axis=(0, 1)) * b, [(2, 3, 4), (3, 4)]),
        (lambda a, b: a.max(axis=0) * b, [(5, 4), (3, 4)]),
        (lambda a, b: a.reshape(4, 3).T * b, [(12,), (3, 4)]),
        (lambda a, b: a.transpose(1, 0) + b, [(4, 3), (3, 4)]),
        (lambda a, b: a[[0, 0, 2]] * b, [(3, 4), (3, 4)]),
        (lambda a, b: a.exp() + (b * b + 1).log() + a.tanh() * b.sigmoid() + (a - b).relu(), [(3, 4), (3, 4)]),
        (lambda a, b: a**3 + (b * b + 1) ** 0.5, [(3, 4), (3, 4)]),
    ],
)
def test_gradients_match_finite_differences(f, shapes):
    inputs = [leaf(s, seed=i) for i, s in enumerate(shapes)]
    result = gradcheck(lambda *xs: (f(*xs) * Tensor(W)).sum(), *inputs)
    assert result.ok, str(result)


def test_matmul_backward_skips_the_product_for_an_operand_that_keeps_no_gradient(monkeypatch):
    """A data batch keeps no gradient: its product (a fifth of a big MLP step) is not computed, as in torch."""
    import minigrad.tensor as tensor_module

    x = Tensor(np.arange(12.0).reshape(3, 4))  # data: requires no gradient
    w = Tensor(np.ones((4, 2)), requires_grad=True)
    shapes, real = [], tensor_module.unbroadcast
    monkeypatch.setattr(tensor_module, "unbroadcast", lambda g, shape: shapes.append(tuple(shape)) or real(g, shape))
    (x @ w).sum().backward()
    assert shapes == [(4, 2)]  # only w's product
    np.testing.assert_allclose(w.grad, x.data.T @ np.ones((3, 2)))
    assert x.grad is None

"""One cheap observation per catalogue bug: `CHECKS[slug](engine)` is True when
the engine shows what the bug does. The test wants False on the healthy
style and True on the style with the bug's diff applied. Each uses only the
course's protocol (through harness.Engine), so one check serves every style;
where a style has the bug in its Value class (classic), the Value is used."""

import numpy as np


def _x_squared_plus_x(E):
    """d(x*x + x)/dx at x = 3 is 7: the value is used twice, along two paths."""
    if E.Value is not None:
        x = E.Value(3.0)
        (x * x + x).backward()
        return x.grad
    x = E.tensor([3.0, 3.0])
    E.loss_of(x * x + x, [1.0, 1.0]).backward()
    return None if x.grad is None else E.grad(x)[0]


def _value_grad(E, f, x):
    v = E.Value(x)
    f(v).backward()
    return v.grad


def _exponent_without_gradient(E):
    """d(2 ** b)/db at b = 3 is 8 log 2; an engine whose ** refuses a Value exponent has no place for the bug."""
    try:
        return not np.isclose(_value_grad(E, lambda b: E.Value(2.0) ** b, 3.0), 8 * np.log(2))
    except (AssertionError, TypeError):
        return False


def _relu_writes_its_input(E):
    """After y = x.relu(), x must still hold its negative entry."""
    x = E.tensor([-1.0, 2.0])
    x.relu()
    return float(np.asarray(x.data)[0]) != -1.0


def _raises_or(check):
    """A bug whose symptom is an exception in backward, or else wrong numbers."""
    def run(E):
        try:
            return check(E)
        except (ValueError, TypeError, AssertionError):
            return True
    return run


@_raises_or
def _unbroadcast_skipped(E):
    a, b = E.tensor(np.ones((4, 3))), E.tensor(np.ones(3))
    (a + b).sum().backward()
    return E.grad(b).shape != (3,) or not np.allclose(E.grad(b), 4.0)


@_raises_or
def _matmul_untransposed(E):
    rng = np.random.default_rng(0)
    A, B, W = rng.normal(size=(3, 3)), rng.normal(size=(3, 3)), rng.normal(size=(3, 3))
    a, b = E.tensor(A), E.tensor(B)
    E.loss_of(a @ b, W).backward()
    return not (np.allclose(E.grad(a), W @ B.T) and np.allclose(E.grad(b), A.T @ W))


@_raises_or
def _sum_axis_lost(E):
    a, w = E.tensor(np.ones((3, 4))), np.array([1.0, 2.0, 3.0])
    E.loss_of(a.sum(axis=1), w).backward()
    return not np.allclose(E.grad(a), np.repeat(w[:, None], 4, axis=1))


def _mean_times_n(E):
    a = E.tensor(np.ones((4, 3)))
    a.mean(axis=0).sum().backward()
    return np.allclose(E.grad(a), 1.0)  # 1/4 when healthy


def _log_softmax_overflows(E):
    return not np.all(np.isfinite(E.F.log_softmax(E.tensor([[1000.0, 1001.0, 999.0]])).data))


def _softmax_rows_not_one(E):
    return not np.allclose(E.F.softmax(E.tensor(np.arange(12.0).reshape(3, 4))).data.sum(axis=1), 1.0)


def _cross_entropy_of_probabilities(E):
    logits = E.tensor(np.eye(3) * 20.0)  # confident and right: a loss of about 0
    return float(E.F.cross_entropy(logits, np.array([0, 1, 2])).data) > 0.5


def _mse_broadcasts(E):
    try:
        E.F.mse_loss(E.tensor(np.ones((4, 1))), np.zeros(4))
    except ValueError:
        return False
    return True


def _bce_overflows(E):
    loss = E.F.binary_cross_entropy_with_logits(E.tensor([-800.0, 40.0]), np.array([1.0, 0.0]))
    return not np.isfinite(float(loss.data))


def _sgd_step(E, p0=(1.0, -2.0)):
    p = E.tensor(p0)
    (p * p).sum().backward()
    E.optim.SGD([p], lr=0.1).step()
    return np.array(p.data)


def _grads_after_two_passes(E):
    p = E.tensor([1.0, 2.0])
    opt = E.optim.SGD([p], lr=0.0)
    for _ in range(2):
        opt.zero_grad()
        (p * p).sum().backward()
    return not np.allclose(E.grad(p), [2.0, 4.0])


def _linear_ignores_input(E):
    layer, rng = E.nn.Linear(3, 4), np.random.default_rng(1)
    return np.allclose(layer(E.tensor(rng.normal(size=(2, 3)))).data, layer(E.tensor(rng.normal(size=(2, 3)))).data)


def _dropout_in_eval(E):
    x = E.tensor(np.ones((4, 25)))
    return not np.array_equal(E.eval(E.nn.Dropout(0.5))(x).data, x.data)


def _list_of_layers_unseen(E):
    model = E.nn.Sequential(E.nn.Linear(2, 2), E.nn.ReLU(), E.nn.Linear(2, 1))
    return len(E.params(model)) != 4


def _clip_per_tensor(E):
    params = [E.tensor(np.zeros(2)), E.tensor(np.zeros(2))]
    params[0].grad, params[1].grad = np.array([3.0, 0.0]), np.array([0.0, 0.4])
    E.nn.clip_grad_norm_(params, 1.0)
    got = np.concatenate([p.grad for p in params])
    return not np.allclose(got, np.array([3.0, 0.0, 0.0, 0.4]) / np.hypot(3.0, 0.4), atol=1e-6)


def _adamw_decay_through_adam(E):
    p = E.tensor([2.0, 0.5])
    p.grad = np.zeros(2)
    E.optim.AdamW([p], lr=0.1, weight_decay=0.1).step()
    return not np.allclose(p.data, [1.98, 0.495])


def _layernorm_depends_on_batch(E):
    x = np.random.default_rng(2).normal(size=(3, 4))
    ln = E.nn.LayerNorm(4)
    return not np.allclose(ln(E.tensor(x)).data[:1], ln(E.tensor(x[:1])).data)


def _batchnorm_eval_uses_the_batch(E):
    bn, rng = E.nn.BatchNorm1d(3), np.random.default_rng(3)
    bn(E.tensor(rng.normal(size=(6, 3)) * 2 + 1))
    E.eval(bn)
    x = rng.normal(size=(5, 3))
    return not np.allclose(bn(E.tensor(x)).data[:1], bn(E.tensor(x[:1])).data)


def _batchnorm_constant_feature_nan(E):
    x = np.random.default_rng(4).normal(size=(5, 3))
    x[:, 1] = 2.0
    with np.errstate(all="ignore"):
        return not np.all(np.isfinite(E.nn.BatchNorm1d(3)(E.tensor(x)).data))


def _layernorm_grad_not_centred(E):
    """LayerNorm's output does not change when a row shifts by a constant, so each
    row of the input's gradient sums to zero, unless the statistics are constants."""
    rng = np.random.default_rng(5)
    x = E.tensor(rng.normal(size=(3, 4)))
    E.loss_of(E.nn.LayerNorm(4)(x), rng.normal(size=(3, 4))).backward()
    return not np.allclose(E.grad(x).sum(axis=1), 0.0, atol=1e-9)


def _reused_intermediate(E):
    """t = a*b used twice: d(t*t + t*4)/da at a=2, b=3 is (2t + 4) * b = 48."""
    a, b = E.Value(2.0), E.Value(3.0)
    t = a * b
    (t * t + t * 4.0).backward()
    return not np.isclose(a.grad, 48.0)


def _sum_of_values_raises(E):
    try:
        sum([E.Value(1.0), E.Value(2.0)])
    except TypeError:
        return True
    return False


def _tanh_overflows(E):
    try:
        return not np.isclose(E.Value(400.0).tanh().data, 1.0)
    except OverflowError:
        return True


@_raises_or
def _log_softmax_rows_wrong(E):
    x = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0], [1.0, 1.0, 5.0]])  # square: a lost axis broadcasts silently
    return not np.allclose(np.exp(E.F.log_softmax(E.tensor(x)).data).sum(axis=1), 1.0)


@_raises_or
def _size_1_axis_unsummed(E):
    a, b = E.tensor(np.ones((3, 1))), E.tensor(np.ones((3, 5)))
    (a * b).sum().backward()
    return E.grad(a).shape != (3, 1) or not np.allclose(E.grad(a), 5.0)


def _repeated_index_once(E):
    emb = E.tensor(np.ones((3, 2)))
    emb[np.array([0, 2, 0])].sum().backward()
    return not np.allclose(E.grad(emb)[0], 2.0)


def _exp_passes_nothing(E):
    x = E.tensor([0.0, 1.0])
    try:
        x.exp().sum().backward()
    except RuntimeError:  # a torch-like engine refuses a root that is not in the graph at all
        return True
    return E.grad(x) is None or not np.allclose(E.grad(x), np.exp([0.0, 1.0]))


def _second_backward_piles_up(E):
    x = E.tensor([1.0, 2.0])
    loss = ((x * x) * 3.0).sum()
    grads = []
    for _ in range(2):
        x.grad = None if E.grad(x) is None else np.zeros(2)
        loss.backward()
        grads.append(np.array(E.grad(x)))
    return not np.allclose(grads[0], grads[1])


def _dropout_keeps_scale_one(E):
    x = E.tensor(np.ones((4, 50)))
    out = np.asarray(E.nn.Dropout(0.5)(x).data)
    return np.allclose(out[out != 0], 1.0)


def _running_var_biased(E):
    x = np.array([[1.0, 0.0], [3.0, 4.0]])
    bn = E.nn.BatchNorm1d(2)
    bn(E.tensor(x))
    return np.allclose(np.asarray(getattr(bn.running_var, "data", bn.running_var)), 0.9 + 0.1 * x.var(axis=0))


CHECKS = {
    "overwrite-grad": lambda E: _x_squared_plus_x(E) is not None and not np.isclose(_x_squared_plus_x(E), 7.0),
    "skip-unbroadcast": _unbroadcast_skipped,
    "topological-order-not-reversed": lambda E: _x_squared_plus_x(E) is None or not np.isclose(_x_squared_plus_x(E), 7.0),
    "no-output-seed": lambda E: _x_squared_plus_x(E) == 0,
    "tanh-grad-from-input": lambda E: not np.isclose(_value_grad(E, lambda v: v.tanh(), 0.5), 1 - np.tanh(0.5) ** 2),
    "relu-gated-on-upstream": lambda E: _value_grad(E, lambda v: v.relu() * -1, 2.0) != -1,
    "pow-exponent-off-by-one": lambda E: _value_grad(E, lambda v: v**3, 2.0) != 12,
    "relu-in-place": _relu_writes_its_input,
    "sub-backward-sign-flipped": lambda E: _value_grad(E, lambda v: E.Value(5.0) - v, 2.0) != -1,
    "value-exponent-gets-no-gradient": _exponent_without_gradient,
    "matmul-without-transpose": _matmul_untransposed,
    "sum-forgets-reduced-axis": _sum_axis_lost,
    "mean-forgets-n": _mean_times_n,
    "log-softmax-without-max": _log_softmax_overflows,
    "sgd-sign-flipped": lambda E: np.sum(_sgd_step(E) ** 2) > 5.0,
    "zero-grad-does-nothing": _grads_after_two_passes,
    "zero-initialisation": _linear_ignores_input,
    "dropout-on-in-eval": _dropout_in_eval,
    "parameters-in-a-plain-list": _list_of_layers_unseen,
    "clip-grad-norm-per-tensor": _clip_per_tensor,
    "adamw-decay-in-the-gradient": _adamw_decay_through_adam,
    "layernorm-over-the-batch": _layernorm_depends_on_batch,
    "batchnorm-batch-stats-in-eval": _batchnorm_eval_uses_the_batch,
    "batchnorm-without-eps": _batchnorm_constant_feature_nan,
    "layernorm-stats-detached": _layernorm_grad_not_centred,
    "softmax-over-the-batch": _softmax_rows_not_one,
    "softmax-before-cross-entropy": _cross_entropy_of_probabilities,
    "mse-loss-broadcasts": _mse_broadcasts,
    "bce-log-of-sigmoid": _bce_overflows,
    "sgd-rebinds-the-parameter": lambda E: np.array_equal(_sgd_step(E), [1.0, -2.0]),
    "recursive-backward": _reused_intermediate,
    "no-reflected-add": _sum_of_values_raises,
    "tanh-from-exp": _tanh_overflows,
    "log-softmax-sum-drops-keepdims": _log_softmax_rows_wrong,
    "unbroadcast-forgets-size-1-axes": _size_1_axis_unsummed,
    "getitem-loses-repeated-indices": _repeated_index_once,
    "exp-never-joins-the-graph": _exp_passes_nothing,
    "backward-keeps-old-intermediate-grads": _second_backward_piles_up,
    "dropout-without-rescaling": _dropout_keeps_scale_one,
    "batchnorm-running-var-biased": _running_var_biased,
}

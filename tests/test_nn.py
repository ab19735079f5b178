import numpy as np
import pytest

from minigrad import functional as F
from minigrad import nn, optim
from minigrad.gradcheck import gradcheck
from minigrad.tensor import Tensor


def two_moons(n=200, noise=0.1, seed=0):
    """The classic two interleaving half circles, made here (no data set download)."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    label = rng.integers(0, 2, n)
    x = np.where(label[:, None] == 0, np.c_[np.cos(t), np.sin(t)], np.c_[1 - np.cos(t), 0.5 - np.sin(t)])
    return x + rng.normal(scale=noise, size=x.shape), label


@pytest.mark.parametrize(
    "make_optimizer, steps",
    [(lambda p: optim.SGD(p, lr=0.1, momentum=0.9), 300), (lambda p: optim.Adam(p, lr=0.01), 300)],
    ids=["sgd-momentum", "adam"],
)
def test_mlp_learns_two_moons(make_optimizer, steps):
    nn.manual_seed(0)
    x, y = two_moons()
    model = nn.MLP([2, 16, 16, 2])
    opt = make_optimizer(model.parameters())
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(Tensor(x)), y)
        loss.backward()
        opt.step()
    accuracy = (model(Tensor(x)).data.argmax(axis=1) == y).mean()
    assert accuracy >= 0.97, f"accuracy {accuracy:.3f} after {steps} steps, loss {loss.item():.4f}"


def test_parameters_weight_before_bias_and_bias_shape():
    layer = nn.Linear(3, 2)
    weight, bias = layer.parameters()
    assert weight.shape == (2, 3) and bias.shape == (2,)
    assert len(list(nn.MLP([2, 4, 1]).parameters())) == 4


@pytest.mark.parametrize("norm", [nn.LayerNorm(4), nn.BatchNorm1d(4)], ids=["layernorm", "batchnorm1d"])
def test_norm_layers_pass_gradcheck(norm):
    rng = np.random.default_rng(3)
    x = Tensor(rng.normal(size=(5, 4)) * 3 + 1)
    w = Tensor(rng.normal(size=(5, 4)))
    norm.weight.data[:] = rng.normal(size=4)
    assert gradcheck(lambda x, g, b: (norm(x) * w).sum(), x, norm.weight, norm.bias).ok


def test_batchnorm_running_statistics_like_torch():
    bn = nn.BatchNorm1d(2)
    assert bn.training
    x = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]])
    bn(Tensor(x))
    np.testing.assert_allclose(bn.running_mean, 0.1 * x.mean(axis=0))
    np.testing.assert_allclose(bn.running_var, 0.9 + 0.1 * x.var(axis=0, ddof=1))
    bn.eval()
    out = bn(Tensor(x)).data
    np.testing.assert_allclose(out, (x - bn.running_mean) / np.sqrt(bn.running_var + 1e-5))


def test_eval_and_train_reach_submodules():
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    model.eval()
    assert not model[1].training
    model.train()
    assert model[1].training


def test_losses_reject_bad_shapes():
    with pytest.raises(ValueError, match=r"\(3, 2\) and \(2,\)"):
        F.cross_entropy(Tensor(np.zeros((3, 2))), np.array([0, 1]))
    with pytest.raises(ValueError, match="differ in shape"):
        F.mse_loss(Tensor(np.zeros((3, 1))), Tensor(np.zeros(3)))


def test_log_softmax_is_stable_for_large_logits():
    out = F.log_softmax(Tensor([[1000.0, 0.0]]))
    assert np.isfinite(out.data).all()
    np.testing.assert_allclose(out.data, [[0.0, -1000.0]])


def test_dropout_is_inverted_in_training_and_the_identity_in_eval():
    nn.manual_seed(0)
    x = Tensor(np.ones((200, 50)) * 2.0, requires_grad=True)
    drop = nn.Dropout(0.25)
    y = drop(x)
    kept = y.data != 0
    assert np.allclose(y.data[kept], 2.0 / 0.75)  # the survivors carry the dropped ones' share
    assert abs(kept.mean() - 0.75) < 0.01
    y.sum().backward()
    assert np.allclose(x.grad, kept / 0.75)  # the gradient flows through the same mask
    assert drop.eval()(x) is x
    assert np.all(nn.Dropout(1.0)(x).data == 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        nn.Dropout(1.5)


def test_dropout_mask_follows_manual_seed():
    x = Tensor(np.ones((4, 4)))
    nn.manual_seed(3)
    first = nn.Dropout()(x).data
    nn.manual_seed(3)
    assert np.array_equal(first, nn.Dropout()(x).data)


def test_parameters_finds_modules_held_in_a_list():
    class Blocks(nn.Module):
        def __init__(self):
            self.blocks = [nn.Linear(2, 2), nn.Linear(2, 2)]
            self.head = nn.Linear(2, 1)

    assert len(list(Blocks().parameters())) == 6

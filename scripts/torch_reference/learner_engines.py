"""PyTorch's numbers for the learner engines (tests/learner_engines/):
minigrad/reference/learner_engines.json.

tests/test_learner_engines.py reads the JSON and runs the same cases, by name,
on each style's own engine. Inputs are drawn here (np.random.default_rng(crc32
of the case name), so a new case never changes another's) and stored in the
JSON. An op's or a layer's loss is sum(output * weight) with a fixed random
weight of the output's shape, so that no gradient is uniform.
"""

import json
import zlib

import numpy as np

from scripts.torch_reference import HOME, differences

OUT = HOME / "learner_engines.json"


def draw(name, shape, init="normal"):
    rng = np.random.default_rng(zlib.crc32(f"{name}/{shape}/{init}".encode()))
    if init == "positive":
        return rng.uniform(0.5, 2.0, shape)
    if init == "wide":
        return rng.normal(0, 4, shape)
    return rng.normal(size=shape)


# Tensor ops: name -> (input shapes, init per input ("const": a plain array, no grad), torch function).
OPS = {
    "add (4,3) + (3,)": ([(4, 3), (3,)], None, lambda a, b: a + b),
    "add (3,1) + (3,5)": ([(3, 1), (3, 5)], None, lambda a, b: a + b),
    "sub (3,) - (4,3)": ([(3,), (4, 3)], None, lambda a, b: a - b),
    "mul (3,1) * (1,4)": ([(3, 1), (1, 4)], None, lambda a, b: a * b),
    "div (4,3) / (3,)": ([(4, 3), (3,)], None, lambda a, b: a / (b * b + 1)),
    "pow a**3 - b**-2": ([(2, 3), (2, 3)], ["normal", "positive"], lambda a, b: a**3 - b**-2),
    "numbers on either side": ([(2, 3)], None, lambda a: 2 - a * 3 + 1 / (a * a + 1) + a / 4 - 1),
    "ndarray on either side": ([(2, 3), (2, 3)], ["normal", "const"], lambda a, c: c + a * c - c / (a * a + 1) + (a - c)),
    "neg": ([(2, 3)], None, lambda a: -a),
    "matmul (3,4) @ (4,2)": ([(3, 4), (4, 2)], None, lambda a, b: a @ b),
    "matmul a.T @ b": ([(4, 3), (4, 2)], None, lambda a, b: a.T @ b),
    "matmul (4,) @ (4,2)": ([(4,), (4, 2)], None, lambda a, b: a @ b),
    "matmul batched (2,3,4) @ (4,2)": ([(2, 3, 4), (4, 2)], None, lambda a, b: a @ b),
    "sum all (3,4)": ([(3, 4)], None, lambda a: a.sum()),
    "sum axis 1 (3,4)": ([(3, 4)], None, lambda a: a.sum(dim=1)),
    "sum axis 0 keepdims (4,3)": ([(4, 3)], None, lambda a: a.sum(dim=0, keepdim=True)),
    "mean all (3,4)": ([(3, 4)], None, lambda a: a.mean()),
    "mean axis 0 (4,3)": ([(4, 3)], None, lambda a: a.mean(dim=0)),
    "mean axis -1 keepdims (3,4)": ([(3, 4)], None, lambda a: a.mean(dim=-1, keepdim=True)),
    "max axis 1 (3,4)": ([(3, 4)], None, lambda a: a.amax(dim=1)),
    "max all (3,4)": ([(3, 4)], None, lambda a: a.amax()),
    "exp (2,3)": ([(2, 3)], None, lambda a: a.exp()),
    "log (2,3)": ([(2, 3)], ["positive"], lambda a: a.log()),
    "tanh (2,3)": ([(2, 3)], None, lambda a: a.tanh()),
    "relu (2,3)": ([(2, 3)], None, lambda a: a.relu()),
    "sigmoid (2,3), wide": ([(2, 3)], ["wide"], lambda a: a.sigmoid()),
    "index rows, cols (3,4)": ([(3, 4)], None, lambda a: a[[0, 1, 2, 1], [3, 0, 1, 0]]),
    "transpose (3,4)": ([(3, 4)], None, lambda a: a.T),
}

# Value (scalar) cases: three inputs a, b, c (c > 0 for log, b < 0 for relu).
SCALAR_INPUTS = [0.7, -1.3, 2.1]
SCALARS = {
    "diamond (a*b + c) * (a - c)": lambda a, b, c: (a * b + c) * (a - c),
    "x*x + x": lambda a, b, c: a * a + a,
    "tanh(a*b) / c": lambda a, b, c: (a * b).tanh() / c,
    "exp, log, relu, sigmoid": lambda a, b, c: (a.exp() + c.log()) * b.relu() + (a * b).sigmoid() + a.relu(),
    "a ** 3 - b ** -2": lambda a, b, c: a**3 - b**-2,
    "relu(a - b) * c + relu(c - a) * -b": lambda a, b, c: (a - b).relu() * c + (c - a).relu() * -b,
    "numbers on either side": lambda a, b, c: 2 - a / 4 + 3 / b - (-c) * 2 + (1 + a) * 0.5,
}

BCE_TARGETS = [1.0, 0.0, 1.0, 0.5, 1.0, 0.0]
# Losses: name -> (input, extra argument, torch function of (x, extra)).
LOSSES = {
    "softmax (3,4)": (draw("softmax", (3, 4)), None, lambda x, _: x.softmax(-1)),
    "softmax axis 0 (3,4)": (draw("softmax0", (3, 4)), None, lambda x, _: x.softmax(0)),
    "log_softmax near 1000 (2,3)": (draw("lsm", (2, 3)) + 1000, None, lambda x, _: x.log_softmax(-1)),
    "log_softmax axis 0 (3,4)": (draw("lsm0", (3, 4)), None, lambda x, _: x.log_softmax(0)),
    "cross_entropy (4,3)": (draw("ce", (4, 3)), [0, 2, 1, 2], lambda x, t: _F().cross_entropy(x, _tensor(t, int))),
    "mse_loss (4,1)": (draw("mse", (4, 1)), draw("mse target", (4, 1)).tolist(), lambda x, t: _F().mse_loss(x, _tensor(t))),
    "bce with logits up to ±800 (6,)": (
        np.array([-800.0, -40.0, -3.0, 0.0, 2.0, 40.0]), BCE_TARGETS,
        lambda x, t: _F().binary_cross_entropy_with_logits(x, _tensor(t))),
}


def _F():
    import torch.nn.functional as F
    return F


def _tensor(x, dtype=float, grad=False):
    import torch
    return torch.tensor(np.asarray(x, dtype=dtype), requires_grad=grad)


def _out_and_loss(out, name):
    weight = draw(f"{name}/weight", tuple(out.shape))
    return out.detach().numpy().tolist(), weight.tolist(), (out * _tensor(weight)).sum()


def ops():
    cases = {}
    for name, (shapes, inits, f) in OPS.items():
        inits = inits or ["normal"] * len(shapes)
        arrays = [draw(name, s, "normal" if i == "const" else i) for s, i in zip(shapes, inits)]
        leaves = [_tensor(x, grad=i != "const") for x, i in zip(arrays, inits)]
        output, weight, loss = _out_and_loss(f(*leaves), name)
        loss.backward()
        cases[name] = {"inputs": [x.tolist() for x in arrays], "const": [i == "const" for i in inits], "weight": weight,
                       "output": output, "grads": [t.grad.numpy().tolist() if t.grad is not None else None for t in leaves]}
    return cases


def scalars():
    cases = {}
    for name, f in SCALARS.items():
        leaves = [_tensor(x, grad=True) for x in SCALAR_INPUTS]
        out = f(*leaves)
        out.backward()
        cases[name] = {"inputs": SCALAR_INPUTS, "output": out.item(), "grads": [t.grad.item() if t.grad is not None else 0.0 for t in leaves]}
    return cases


def losses():
    cases = {}
    for name, (x, extra, f) in LOSSES.items():
        leaf = _tensor(x, grad=True)
        out = f(leaf, extra)
        output, weight, loss = _out_and_loss(out, name)
        loss.backward()
        cases[name] = {"input": x.tolist(), "extra": extra, "weight": weight, "output": output, "grad": leaf.grad.numpy().tolist()}
    return cases


def layers():
    import torch

    def run(name, x, module, forward=None):
        xt = _tensor(x, grad=True)
        output, weight, loss = _out_and_loss((forward or module)(xt), name)
        loss.backward()
        params = {k: v.detach().numpy().tolist() for k, v in module.state_dict().items() if k != "num_batches_tracked"}
        grads = {k: p.grad.numpy().tolist() for k, p in module.named_parameters()}
        return {"input": x.tolist(), "weight": weight, "output": output, "input_grad": xt.grad.numpy().tolist(),
                "state": params, "grads": grads}

    torch.manual_seed(0)
    cases = {}
    linear = torch.nn.Linear(3, 2).double()
    cases["linear 3 -> 2"] = run("linear", draw("linear x", (4, 3)), linear)
    ln = torch.nn.LayerNorm(4).double()
    with torch.no_grad():
        ln.weight[:] = 1 + 0.1 * torch.arange(4)
        ln.bias[:] = 0.1 * torch.arange(4)
    cases["layernorm 4"] = run("layernorm", draw("ln x", (3, 4)), ln)
    bn = torch.nn.BatchNorm1d(3).double()
    with torch.no_grad():
        bn.weight[:] = torch.tensor([0.5, 1.5, -1.0])
        bn.bias[:] = torch.tensor([0.1, 0.0, -0.2])
    x = draw("bn x", (5, 3))
    x[:, 1] = 2.0  # a constant feature: eps keeps it finite
    cases["batchnorm train, a constant feature"] = run("bn train", x, bn)
    bn = torch.nn.BatchNorm1d(3).double()
    first, second = draw("bn first", (3, 3)) * 2 + 1, draw("bn second", (4, 3)) - 1
    bn(_tensor(first)), bn(_tensor(second))
    bn.eval()
    case = run("bn eval", draw("bn eval x", (5, 3)), bn)
    cases["batchnorm eval after two batches"] = dict(case, batches=[first.tolist(), second.tolist()])
    mlp = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2)).double()
    cases["mlp 3 -> 4 -> 2, tanh"] = run("mlp", draw("mlp x", (5, 3)), mlp)
    return cases


OPTIMIZERS = {
    "sgd lr 0.1": ("SGD", {"lr": 0.1}),
    "sgd lr 0.1 momentum 0.9": ("SGD", {"lr": 0.1, "momentum": 0.9}),
    "adam lr 0.01": ("Adam", {"lr": 0.01}),
    "adamw lr 0.01 weight_decay 0.1": ("AdamW", {"lr": 0.01, "weight_decay": 0.1}),
}


def optimizers():
    import torch

    start = [draw("p0", (3,)), draw("p1", (2, 2))]
    grads = [[draw(f"g{step} {i}", p.shape) for i, p in enumerate(start)] for step in range(3)]
    cases = {"start": [p.tolist() for p in start], "grads": [[g.tolist() for g in gs] for gs in grads], "runs": {}}
    for name, (cls, options) in OPTIMIZERS.items():
        params = [_tensor(p, grad=True) for p in start]
        opt = getattr(torch.optim, cls)(params, **options)
        after = []
        for gs in grads:
            for p, g in zip(params, gs):
                p.grad = _tensor(g)
            opt.step()
            after.append([p.detach().numpy().tolist() for p in params])
        cases["runs"][name] = {"class": cls, "options": options, "after": after}
    return cases


def clipping():
    import torch

    cases = {}
    for name, max_norm in [("clip to 1", 1.0), ("no clip at 100", 100.0)]:
        grads = [draw("clip g0", (3,)), draw("clip g1", (2, 2))]
        params = [_tensor(np.zeros(g.shape), grad=True) for g in grads]
        for p, g in zip(params, grads):
            p.grad = _tensor(g)
        total = torch.nn.utils.clip_grad_norm_(params, max_norm)
        cases[name] = {"max_norm": max_norm, "grads": [g.tolist() for g in grads], "total": total.item(),
                       "clipped": [p.grad.numpy().tolist() for p in params]}
    return cases


def compute():
    import torch

    torch.set_default_dtype(torch.float32)  # torch's default, as a fresh process has it: the other parts set float64
    return {"ops": ops(), "scalars": scalars(), "losses": losses(), "layers": layers(),
            "optimizers": optimizers(), "clipping": clipping()}


def dumps(reference):
    return json.dumps(reference, indent=1) + "\n"


def stale(committed_text, reference):
    return differences(json.loads(committed_text), json.loads(dumps(reference)))

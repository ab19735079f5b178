"""clip_grad_norm_, Adam's weight_decay and AdamW against PyTorch:
minigrad/reference/optimizers.json, read by tests/test_torch_parity_optimizers.py,
which runs the same cases through minigrad. Inputs are stored in the JSON;
everything is float64, nothing is rounded.
"""

import json

import numpy as np

from scripts.torch_reference import HOME

OUT = HOME / "optimizers.json"
SHAPES = [(3, 4), (4,), (2, 2)]
STEPS = 4


def clip_cases(torch):
    cases = {}
    for max_norm in (1.0, 100.0):  # one that clips, one that leaves the gradients alone
        rng = np.random.default_rng(int(max_norm))
        grads = [rng.normal(size=s) for s in SHAPES]
        params = [torch.zeros(s, dtype=torch.float64, requires_grad=True) for s in SHAPES]
        for p, g in zip(params, grads):
            p.grad = torch.tensor(g)
        total = torch.nn.utils.clip_grad_norm_(params, max_norm)
        cases[f"clip_grad_norm_ max_norm={max_norm}"] = {
            "max_norm": max_norm, "grads": [g.tolist() for g in grads],
            "clipped": [p.grad.tolist() for p in params], "total_norm": float(total)}
    return cases


def optimizer_cases(torch):
    cases = {}
    for name, kwargs in [("Adam", {"lr": 0.05, "weight_decay": 0.1}), ("AdamW", {"lr": 0.05, "weight_decay": 0.1}),
                         ("AdamW", {"lr": 0.05})]:
        rng = np.random.default_rng(7)
        start = [rng.normal(size=s) for s in SHAPES]
        grads = [[rng.normal(size=s) for s in SHAPES] for _ in range(STEPS)]
        params = [torch.tensor(x, requires_grad=True) for x in start]
        opt = getattr(torch.optim, name)(params, **kwargs)
        for step in grads:
            for p, g in zip(params, step):
                p.grad = torch.tensor(g)
            opt.step()
        key = f"{name} " + " ".join(f"{k}={v}" for k, v in kwargs.items())
        cases[key] = {"optimizer": name, "kwargs": kwargs, "start": [x.tolist() for x in start],
                      "grads": [[g.tolist() for g in step] for step in grads],
                      "final": [p.detach().numpy().tolist() for p in params]}
    return cases


def compute():
    import torch

    torch.set_default_dtype(torch.float64)
    return {"torch": torch.__version__, "clip": clip_cases(torch), "optimizers": optimizer_cases(torch)}


def dumps(data):
    return json.dumps(data, indent=1) + "\n"

"""What PyTorch does, as the pages quote it: minigrad/reference/facts.json.

The pages say things about PyTorch besides its numbers for minigrad's cases
(those are checks.py's): `zero_grad()` leaves `.grad`
at `None`, SGD's first momentum step is `lr · g`, Adam's first step has size
`lr`, BatchNorm1d's running variance is the unbiased one, `mse_loss` warns
when it broadcasts, `BCELoss` clamps its log at -100, AdamW with a zero
gradient shrinks the weights by `1 - lr * weight_decay`, a second backward
through one graph raises unless `retain_graph=True` (and then repeats the
first pass's gradients), Dropout in training scales what it keeps by
`1/(1-p)`, and the defaults the pages name. Each fact is recorded here from a real run, with the inputs that
produced it; the pages' claims blocks ("How this page's claims are checked")
print them, next to minigrad's own numbers where there are some, so CI checks
the page against this file, and the reader can run the same block. The file
ships with minigrad (the browser runs the claims blocks too).
tests/test_torch_facts.py compares the committed file with a fresh run when
torch is importable there, and checks that every fact is quoted by a page.
"""

import inspect
import json
import warnings

from scripts.torch_reference import HOME

OUT = HOME / "facts.json"

# The inputs, one place. The pages' blocks use the same ones (phase 10's batch, the
# AdamW page's weights, theory 05's gradients), so a fact can sit next to minigrad's number.
SGD_MOMENTUM = {"lr": 0.1, "momentum": 0.9, "grad": 1.0, "steps": 4}
ADAM = {"lr": 0.1, "grads": [1e-3, 1.0, 1e3]}
BATCHNORM_BATCH = [[1.0, 2.0, 3.0], [2.0, 4.0, 9.0]]
MSE_SHAPES = {"input": [4, 1], "target": [4]}
ADAMW_ZERO_GRAD = {"lr": 0.1, "weight_decay": 0.5, "weights": [4.0, -0.5]}
SECOND_BACKWARD = {"graph": "tanh(x * w).sum()", "x": [0.5, -1.0], "w": [2.0, 3.0]}
DROPOUT = {"p": 0.25, "input": "ones(10000)", "seed": 0}


def compute():
    import torch

    torch.set_default_dtype(torch.float64)
    nn, F = torch.nn, torch.nn.functional
    facts = {"torch": torch.__version__.split("+")[0]}

    p = torch.zeros(2, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    p.sum().backward()
    opt.zero_grad()
    default = inspect.signature(torch.optim.Optimizer.zero_grad).parameters["set_to_none"].default
    facts["zero_grad"] = {"set_to_none_default": default, "grad_after": None if p.grad is None else p.grad.tolist()}

    w = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([w], lr=SGD_MOMENTUM["lr"], momentum=SGD_MOMENTUM["momentum"])
    moves, velocity = [], []
    for _ in range(SGD_MOMENTUM["steps"]):
        opt.zero_grad()
        (w * SGD_MOMENTUM["grad"]).sum().backward()
        before = w.item()
        opt.step()
        moves.append(w.item() - before)
        velocity.append(opt.state[w]["momentum_buffer"].item())
    facts["sgd_momentum"] = {**SGD_MOMENTUM, "moves": moves, "velocity": velocity}

    signature = inspect.signature(torch.optim.Adam).parameters
    first = []
    for g in ADAM["grads"]:
        w = torch.zeros(1, requires_grad=True)
        opt = torch.optim.Adam([w], lr=ADAM["lr"])
        (w * g).sum().backward()
        opt.step()
        first.append(w.item())
    facts["adam"] = {
        "defaults": {"lr": signature["lr"].default, "betas": list(signature["betas"].default), "eps": signature["eps"].default},
        **ADAM, "first_step": first,
    }

    x = torch.tensor(BATCHNORM_BATCH)
    bn = nn.BatchNorm1d(x.shape[1])
    bn(x)
    facts["batchnorm1d"] = {
        "defaults": {"eps": bn.eps, "momentum": bn.momentum},
        "batch": BATCHNORM_BATCH,
        "running_var": bn.running_var.tolist(),
        "biased_var": x.var(dim=0, unbiased=False).tolist(),
        "unbiased_var": x.var(dim=0, unbiased=True).tolist(),
    }
    facts["layernorm"] = {"defaults": {"eps": nn.LayerNorm(3).eps}}

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = F.mse_loss(torch.arange(4.0).reshape(MSE_SHAPES["input"]), torch.arange(4.0).reshape(MSE_SHAPES["target"]))
    facts["mse_loss_broadcast"] = {
        **MSE_SHAPES, "values": "0, 1, 2, 3 in both",
        "warning": caught[0].category.__name__ if caught else None,
        "message": str(caught[0].message) if caught else None,
        "loss": loss.item(),  # the mean of (i - j)**2 over the broadcast (4, 4); element by element it would be 0
    }

    bce = nn.BCELoss()
    facts["bce_loss_clamp"] = {
        "p=1, y=0": bce(torch.tensor([1.0]), torch.tensor([0.0])).item(),
        "p=0, y=1": bce(torch.tensor([0.0]), torch.tensor([1.0])).item(),
    }

    p = torch.tensor(ADAMW_ZERO_GRAD["weights"], requires_grad=True)
    p.grad = torch.zeros_like(p)
    torch.optim.AdamW([p], lr=ADAMW_ZERO_GRAD["lr"], weight_decay=ADAMW_ZERO_GRAD["weight_decay"]).step()
    facts["adamw_zero_grad"] = {**ADAMW_ZERO_GRAD, "after": p.detach().tolist(),
                                "default_weight_decay": inspect.signature(torch.optim.AdamW).parameters["weight_decay"].default}

    facts["second_backward"] = {**SECOND_BACKWARD, **_second_backward(torch)}

    torch.manual_seed(DROPOUT["seed"])
    dropout = nn.Dropout(DROPOUT["p"])
    kept = dropout(torch.ones(10000))
    dropout.eval()
    facts["dropout"] = {**DROPOUT, "default_p": nn.Dropout().p,
                        "train_values": sorted(set(round(v, 12) for v in kept.tolist())),
                        "train_mean": round(kept.mean().item(), 4),
                        "eval_values": sorted(set(dropout(torch.ones(10000)).tolist()))}
    return facts


def _second_backward(torch):
    """What a second `backward()` through one graph does: refused, unless the graph is kept; then, after
    zero_grad, the same gradients (PyTorch keeps no `.grad` on intermediates, so nothing old adds in)."""
    w = torch.tensor(SECOND_BACKWARD["w"], requires_grad=True)
    loss = torch.tanh(torch.tensor(SECOND_BACKWARD["x"]) * w).sum()
    loss.backward()
    try:
        loss.backward()
        error = None
    except RuntimeError as e:
        error = str(e).split(" (")[0].split(".")[0]
    w.grad = None
    hidden = torch.tensor(SECOND_BACKWARD["x"]) * w  # an intermediate: no .grad unless retain_grad()
    loss = torch.tanh(hidden).sum()
    loss.backward(retain_graph=True)
    first = w.grad.tolist()
    w.grad = None
    loss.backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that a non-leaf's .grad is never filled: the fact itself
        intermediate = hidden.grad
    return {"error": error, "retain_graph_first": first, "retain_graph_second": w.grad.tolist(),
            "intermediate_grad": None if intermediate is None else intermediate.tolist()}


def dumps(facts):
    """One fact per line: a fact that changes is one line of the diff."""
    lines = [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in facts.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"

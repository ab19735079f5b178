"""Optimizers with torch.optim's update rules; per-parameter state lives in a
dict keyed by the parameter's id, and a parameter whose grad is None is skipped."""

import numpy as np


class Optimizer:
    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr
        self.state = {}

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        for p in self.params:
            if p.grad is not None:
                self.update(p, p.grad, self.state.setdefault(id(p), {}))


class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, lr)
        self.momentum = momentum

    def update(self, p, grad, state):
        if self.momentum:
            buf = state.get("momentum_buffer")
            grad = state["momentum_buffer"] = grad.copy() if buf is None else self.momentum * buf + grad
        p.data -= self.lr * grad


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, lr)
        self.betas, self.eps = betas, eps

    def update(self, p, grad, state):
        if not state:
            state.update(step=0, exp_avg=np.zeros_like(p.data), exp_avg_sq=np.zeros_like(p.data))
        beta1, beta2 = self.betas
        state["step"] += 1
        state["exp_avg"] = beta1 * state["exp_avg"] + (1 - beta1) * grad
        state["exp_avg_sq"] = beta2 * state["exp_avg_sq"] + (1 - beta2) * grad**2
        m_hat = state["exp_avg"] / (1 - beta1 ** state["step"])
        v_hat = state["exp_avg_sq"] / (1 - beta2 ** state["step"])
        p.data -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__(params, lr, betas, eps)
        self.weight_decay = weight_decay

    def update(self, p, grad, state):
        p.data *= 1 - self.lr * self.weight_decay  # decoupled: not through m and v
        super().update(p, grad, state)

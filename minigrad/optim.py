"""Optimizers with PyTorch's update formulas, so reference numbers carry over."""

import numpy as np


class Optimizer:
    def __init__(self, params, lr):
        self.params = list(params)
        if not self.params:
            raise ValueError("optimizer got an empty parameter list")
        self.lr = lr

    def zero_grad(self):
        """Forget the last step's gradients (backward adds into .grad, it never resets leaves)."""
        for p in self.params:
            p.grad = None


class SGD(Optimizer):
    """p -= lr * v, where v = momentum * v + grad (v = grad on the first step)."""

    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, lr)
        self.momentum = momentum
        self.velocity = [None] * len(self.params)

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            update = p.grad
            if self.momentum:
                v = self.velocity[i]
                update = self.velocity[i] = p.grad.copy() if v is None else self.momentum * v + p.grad
            p.data -= self.lr * update


class Adam(Optimizer):
    """Adam with bias correction: p -= lr * m_hat / (sqrt(v_hat) + eps)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__(params, lr)
        self.weight_decay = weight_decay  # L2, as torch.optim.Adam: added to the gradient
        self.beta1, self.beta2 = betas
        self.eps = eps
        self.t = [0] * len(self.params)  # per parameter, as torch: a step without a gradient does not count
        self.m = [np.zeros_like(p.data) for p in self.params]
        self.v = [np.zeros_like(p.data) for p in self.params]

    def step(self):
        for i, (p, m, v) in enumerate(zip(self.params, self.m, self.v)):
            if p.grad is None:
                continue
            self.t[i] += 1
            t = self.t[i]
            grad = p.grad + self.weight_decay * p.data if self.weight_decay else p.grad
            m *= self.beta1
            m += (1 - self.beta1) * grad
            v *= self.beta2
            v += (1 - self.beta2) * grad**2
            m_hat = m / (1 - self.beta1**t)
            v_hat = v / (1 - self.beta2**t)
            p.data -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter 2019), as torch.optim.AdamW:
    p shrinks by lr * weight_decay outside m and v, so the decay is not rescaled by them."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__(params, lr, betas, eps)
        self.decoupled_decay = weight_decay

    def step(self):
        for p in self.params:
            if p.grad is not None:
                p.data *= 1 - self.lr * self.decoupled_decay
        super().step()

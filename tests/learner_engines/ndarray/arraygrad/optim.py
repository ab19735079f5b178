"""Optimizers; a parameter without a gradient is skipped."""

import numpy as np


class Optimizer:
    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None


class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, lr)
        self.momentum = momentum
        self.buffers = [None for _ in self.params]

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad
            if self.momentum:
                g = self.buffers[i] = g if self.buffers[i] is None else self.momentum * self.buffers[i] + g
            p.data -= self.lr * g


class Adam(Optimizer):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, lr)
        self.b1, self.b2 = betas
        self.eps = eps
        self.steps = [0 for _ in self.params]
        self.m = [np.zeros(p.shape) for p in self.params]
        self.v = [np.zeros(p.shape) for p in self.params]

    def adam_step(self, i, p, g):
        self.steps[i] += 1
        t = self.steps[i]
        self.m[i] = self.b1 * self.m[i] + (1 - self.b1) * g
        self.v[i] = self.b2 * self.v[i] + (1 - self.b2) * g * g
        m_hat = self.m[i] / (1 - self.b1**t)
        v_hat = self.v[i] / (1 - self.b2**t)
        p.data -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is not None:
                self.adam_step(i, p, p.grad)


class AdamW(Adam):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
        super().__init__(params, lr, betas, eps)
        self.weight_decay = weight_decay

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is not None:
                p.data *= 1 - self.lr * self.weight_decay
                self.adam_step(i, p, p.grad)

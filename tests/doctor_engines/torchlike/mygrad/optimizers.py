"""SGD with momentum, torch's formula; zero_grad() forgets the gradients (None)."""

import numpy as np


class SGD:
    def __init__(self, params, lr, momentum=0.0):
        self.params, self.lr, self.momentum = list(params), lr, momentum
        self.velocity = [np.zeros(p.shape) for p in self.params]

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            self.velocity[i] = self.momentum * self.velocity[i] + p.grad.data()
            p._data -= self.lr * self.velocity[i]

"""Catalogue bugs planted in the torchlike engine as a learner would write them: (file, healthy text, broken text)."""

BUGS = {
    "sgd-sign-flipped": ("optimizers.py", "p._data -= self.lr", "p._data += self.lr"),
    "zero-grad-does-nothing": ("optimizers.py", "            p.grad = None", "            pass"),
    "skip-unbroadcast": ("core.py", "self._accumulate(unbroadcast(g, self.shape))\n            other._accumulate(unbroadcast(g, other.shape))",
                         "self._accumulate(g)\n            other._accumulate(g)"),
    "matmul-without-transpose": ("core.py", "self._accumulate(g @ other._data.T)", "self._accumulate(g @ other._data)"),
    "relu-gated-on-upstream": ("core.py", "self._accumulate(g * (self._data > 0))", "self._accumulate(g * (g > 0))"),
    "overwrite-grad": ("core.py", "self.grad._data = self.grad._data + g", "self.grad._data = g"),
    "sum-forgets-reduced-axis": ("core.py", "np.broadcast_to(g if keepdim else np.expand_dims(g, dim), self.shape)",
                                 "np.broadcast_to(g, self.shape)"),
    "zero-initialisation": ("layers.py", "Tensor(np.random.uniform(-bound, bound, (n_in, n_out)), require_grad=True)",
                            "Tensor(np.zeros((n_in, n_out)), require_grad=True)"),
}

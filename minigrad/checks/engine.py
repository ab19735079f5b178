"""The engine under test: minigrad's modules, or a learner's, any part absent.

Checks read an engine by duck typing, through the course's protocol
(docs/doctor.md), never through minigrad's internals: a leaf is built whether
or not the constructor takes `requires_grad`, an array is read from `.data` or
from an `np.ndarray` subclass itself, a scalar is reduced with `.sum()` or,
lacking it, with `@` and ones, parameters are set through `parameters()` and
their arrays. What an engine lacks raises `Missing`, which the runner turns
into a skip that names it: a missing op is never evidence of a break.
"""

import contextlib
import importlib
import inspect
import numbers

import numpy as np

PARTS = ("Value", "Tensor", "nn", "optim", "functional")


class Missing(Exception):
    """The engine has no such class, module or op (dotted names: "Tensor.sum", "nn.LayerNorm")."""

    def __init__(self, *names):
        super().__init__(", ".join(names))
        self.names = names


def _direct(fn):
    return fn()


def _tried(engine, fn):
    try:
        engine.guard(fn)
        return True
    except (Exception, SystemExit):  # a learner's sys.exit() must not end the checks
        return False


def _defined(cls, name):
    """`name` written by the engine's author: an ndarray subclass inherits a `sum` that builds no graph."""
    return any(name in vars(k) for k in inspect.getmro(cls) if k not in (np.ndarray, object, np.generic))


class Engine:
    """Value, Tensor, nn, optim, functional (each may be None) and the guard every case runs in."""

    def __init__(self, Value=None, Tensor=None, nn=None, optim=None, functional=None, guard=_direct, data="data", grad="grad"):
        self.Value, self.Tensor, self.nn, self.optim, self.functional = Value, Tensor, nn, optim, functional
        self.guard = guard  # runs one case's call into the engine (the doctor adds a time limit)
        self.on_case = None  # told (check, case) before each case runs: the doctor's progress
        self.data, self.grad_name = data, grad  # the attributes that hold the numbers and the gradient (a learner may map them)
        self._keyword = None
        self._numbers = None
        self._summing = None  # how tensors are summed to one number (total): chosen once, by trying
        self._reduces = {}  # (op, spelling) -> "" when the engine's reduction along an axis is NumPy's, else why not

    @classmethod
    def minigrad(cls, guard=_direct):
        """minigrad's modules as imported now: the broken copy inside `minigrad.breaks.applied(slug)`."""
        mod = {n: importlib.import_module(f"minigrad.{n}") for n in ("scalar", "tensor", "nn", "optim", "functional")}
        return cls(mod["scalar"].Value, mod["tensor"].Tensor, mod["nn"], mod["optim"], mod["functional"], guard)

    @property
    def F(self):
        return self.functional

    def has(self, dotted):
        if dotted == "Value ** Value":  # an operator's case, not a name: tried, and a refusal is a missing op
            return self.Value is not None and _tried(self, lambda: self.Value(2.0) ** self.Value(3.0))
        part, _, attr = dotted.partition(".")
        owner = getattr(self, part)
        if owner is None or not attr:
            return owner is not None
        if isinstance(owner, type):  # written by the engine's author, and not a stub that refuses to be read
            return _defined(owner, attr) and _readable(owner, attr)
        return hasattr(owner, attr)

    def missing(self, needs):
        """The names in `needs` the engine lacks; a part that is missing altogether is named once."""
        missing = []
        for name in needs:
            part = name.partition(".")[0].split(" ")[0]  # "Value ** Value" is a case of Value
            name = name if self.has(part) else part
            if not self.has(name) and name not in missing:
                missing.append(name)
        return missing

    def require(self, *needs):
        missing = self.missing(needs)
        if missing:
            raise Missing(*missing)

    # ---- tensors, whatever their constructor and storage -------------------

    def tensor(self, array, grad=False):
        """A Tensor of `array` (copied); a leaf that wants its gradient when `grad`."""
        self.require("Tensor")
        array = np.array(array, dtype=float)
        if self._keyword is None:
            self._keyword = _requires_grad_keyword(self.Tensor)
        t = self.Tensor(array, **{self._keyword: True}) if grad and self._keyword else self.Tensor(array)
        flag = next((name for name in GRAD_FLAGS if isinstance(getattr(t, name, None), bool)), None)
        if grad and flag and getattr(t, flag) is False:
            try:
                setattr(t, flag, True)
            except AttributeError:  # a read-only property: the engine decides
                pass
        return t

    def leaf(self, array):
        return self.tensor(array, grad=True)

    def values(self, t):
        """The numbers in a Value, a Tensor (`.data`, or the array itself for an ndarray subclass), or a number."""
        if isinstance(t, (numbers.Number, np.generic)):
            return np.asarray(t, dtype=float)
        if isinstance(t, np.ndarray):
            return np.asarray(t, dtype=float)
        return np.asarray(self.raw(t), dtype=float)

    def raw(self, t):
        """What `t` holds its numbers in, as the engine keeps it (`.data`, or the mapped attribute)."""
        if isinstance(t, np.ndarray):
            return t  # an ndarray subclass is its own array (its `.data` is a memoryview)
        try:
            held = getattr(t, self.data)
        except AttributeError:
            raise Missing(f"{type(t).__name__}.{self.data}") from None
        return held() if callable(held) and not isinstance(held, np.ndarray) else held  # `.data()`, a method

    def takes_numbers(self):
        """Whether the engine's Value takes plain-number operands (`a * 200`, `a + 1`). Some engines take
        only Values by design: the cases written with numbers are then skipped, saying so, not evidence."""
        if self._numbers is None:
            try:
                a = self.Value(2.0)
                self._numbers = self.number(a * 2.0) == 4.0 and self.number(a + 1.0) == 3.0
            except Exception as e:
                self._numbers = f"{type(e).__name__}: {e}"
        if self._numbers is not True:
            raise Missing(f"call: your Value takes no plain-number operands (Value(2.0) * 2.0 or + 1.0 gave {self._numbers})")

    def single_precision(self, *ts):
        """Whether the engine keeps any of `ts` (or its gradient) in float32 or less (PyTorch's default, and
        many learners', sometimes for the gradients alone): its numbers are then compared with torch's
        at that precision, not at float64's."""
        def narrow(raw):
            dtype = getattr(raw, "dtype", None)
            return dtype is not None and np.issubdtype(dtype, np.floating) and dtype.itemsize < 8

        for t in ts:
            try:
                if narrow(self.raw(t)) or narrow(self.raw_grad(t)):
                    return True
            except Missing:
                continue
        return False

    def number(self, t):
        return float(self.values(t).reshape(()))

    def grad(self, t):
        """The gradient as an array, or None (PyTorch leaves None on inputs a graph never uses)."""
        g = getattr(t, self.grad_name, None)
        return None if g is None else self.values(g).copy()  # a copy: zero_grad() may clear it in place

    def raw_grad(self, t):
        """The gradient as the engine keeps it (its dtype tells the precision it computes in)."""
        g = getattr(t, self.grad_name, None)
        return g if g is None or isinstance(g, (np.ndarray, numbers.Number, np.generic)) else self.raw(g)

    def scalar_grad(self, v):
        g = self.grad(v)
        return None if g is None else float(g.reshape(()))


    def const(self, value, like):
        """A constant of `like`'s shape: no engine has to take a Python number, or broadcast a 0-d one."""
        return self.tensor(np.full(self.values(like).shape, value))

    def matmul(self, a, b):
        if self.has("Tensor.__matmul__"):
            return a @ b
        if self.has("Tensor.matmul"):
            return a.matmul(b)
        raise Missing("Tensor.__matmul__")

    def reduce(self, t, op, axis=None, keepdims=False):
        """t.sum / mean / max over `axis`, whether the engine says axis= and keepdims= (NumPy) or dim= and keepdim= (torch)."""
        if not self.has(f"Tensor.{op}"):
            raise Missing(f"Tensor.{op}")
        method = getattr(t, op)
        try:
            names = inspect.signature(method).parameters
        except (TypeError, ValueError):
            names = {}
        args, kwargs = [], {}
        if axis is not None:
            spelled = [n for n in ("axis", "dim", "axes") if n in names]
            if spelled or not names:
                kwargs[spelled[0] if spelled else "axis"] = axis
            else:  # another name (`ax`, `along`): the first parameter, where NumPy and torch both put it
                args.append(axis)
        if keepdims:
            kwargs["keepdim" if "keepdim" in names and "keepdims" not in names else "keepdims"] = True
        if axis is not None:
            self._reduces_along_axes(op, args, kwargs)
        result = method(*args, **kwargs)
        if op == "max" and axis is not None:  # torch's max(dim) is (values, indices), named or not
            named = getattr(result, "values", None)
            if named is not None and not callable(named):
                return named
            if isinstance(result, tuple) and len(result) == 2:
                return result[0]
        return result

    def _reduces_along_axes(self, op, args, kwargs):
        """Whether t.op(axis) computes NumPy's op along that axis on a small tensor (tried once per op and
        spelling): an engine whose reductions take no axis (tinygrad's early `sum()`) skips the cases that
        need one, instead of every one of them raising in the engine's own code."""
        key = (op, bool(args), tuple(sorted(kwargs)))
        if key not in self._reduces:
            probe = np.arange(6.0).reshape(2, 3)
            try:
                method = getattr(self.tensor(probe), op)
                got = method(*[1] * len(args), **{k: (1 if k in ("axis", "dim", "axes") else v) for k, v in kwargs.items()})
                if op == "max" and isinstance(got, tuple):
                    got = got[0]
                got = getattr(got, "values", got) if op == "max" and not callable(getattr(got, "values", None)) else got
                ok = np.allclose(np.reshape(self.values(got), -1), getattr(np, op)(probe, axis=1))
                self._reduces[key] = "" if ok else f"gave {np.round(self.values(got), 4).tolist()}"
            except Missing:
                raise
            except Exception as e:
                self._reduces[key] = f"raised {type(e).__name__}: {e}"
        if self._reduces[key]:
            raise Missing(f"call: your Tensor.{op} does not reduce along one axis as NumPy's {op}(axis=1) does"
                          f" (on a (2, 3) tensor it {self._reduces[key]})")

    def along_last(self, fn, x):
        """softmax(x) or log_softmax(x) as the engine's own default has it, with the last axis given
        only where the engine requires one (nptorch's F.softmax(x, dim)): a default of its own,
        wrong or not, is what the check is there to see."""
        try:
            names = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            names = {}
        required = [n for n in ("dim", "axis") if n in names and names[n].default is inspect.Parameter.empty]
        return fn(x, **{required[0]: -1}) if required else fn(x)

    def total(self, t):
        """t reduced to one element, the way every tensor case ends: `.sum()` (again, while an engine's
        default sums only the last axis, as torch's `dim=-1` habit has it), or `@` with ones when the
        engine has no sum, or when its sum's own backward fails and `@`'s does not: a bug in sum is
        then sum's case's finding, not every case's (the cases would all fail through it)."""
        if self._summing is None:
            self._summing = self._choose_summing()
        return self._sum_by(self._summing, t)

    def _choose_summing(self):
        ways = [w for w in ("sum", "matmul") if self.has("Tensor.sum" if w == "sum" else "Tensor")]
        if len(ways) > 1 and not self._sums_to_ones("sum") and self._sums_to_ones("matmul"):
            return "matmul"
        return ways[0] if ways else "matmul"

    def _sums_to_ones(self, way):
        """Whether summing a (3, 4) leaf this way gives it a gradient of ones, as it must."""
        try:
            x = self.leaf(np.arange(12.0).reshape(3, 4) / 10)
            self._sum_by(way, x).backward()
            got = self.grad(x)
            return got is not None and got.shape == (3, 4) and np.allclose(got, 1.0)
        except Missing:
            return False
        except Exception:  # the engine's own error: this way does not work here
            return False

    def _sum_by(self, way, t):
        if way == "sum":
            for _ in range(self.values(t).ndim or 1):
                t = t.sum()
                if self.values(t).size == 1:
                    return t
            raise Missing("call: your Tensor.sum() does not reduce to one number")
        shape = self.values(t).shape
        if len(shape) == 0:
            return t
        if len(shape) == 1:
            return self.matmul(t, self.tensor(np.ones(shape)))
        if len(shape) == 2:
            return self.matmul(self.matmul(self.tensor(np.ones((1, shape[0]))), t), self.tensor(np.ones((shape[1], 1))))
        raise Missing("Tensor.sum")

    def weighted_total(self, out):
        """A fixed, non-uniform weighting of `out`, summed: a uniform one hides wrong sums."""
        return self.total(out * self.tensor(weight_array(self.values(out).shape)))

    def set_values(self, t, array):
        """Write into a parameter in place, so the module and the optimizer still hold it."""
        target = self.raw(t)
        if isinstance(target, np.ndarray) and target.flags.writeable:
            target[...] = np.reshape(array, target.shape)
        elif np.ndim(target) == 0 and not isinstance(target, np.ndarray):
            setattr(t, self.data, float(np.reshape(array, ())))  # a Value's number
        else:
            setattr(t, self.data, np.array(array, dtype=float).reshape(np.shape(target)))

    def parameters(self, module):
        return list(module.parameters())

    @contextlib.contextmanager
    def seeded(self, seed=0):
        """Reproducible initialisation without assuming an rng attribute: NumPy's global generator
        is seeded, and the engine's `manual_seed` called if it has one; both are restored after."""
        state = np.random.get_state()
        np.random.seed(seed)
        nn = self.nn
        keeps_state = nn is not None and hasattr(nn, "get_rng_state") and hasattr(nn, "set_rng_state")
        saved = nn.get_rng_state() if keeps_state else None  # put the engine's generator back as found
        if nn is not None and hasattr(nn, "manual_seed"):
            nn.manual_seed(seed)
        try:
            yield
        finally:
            np.random.set_state(state)
            if keeps_state:
                nn.set_rng_state(saved)


def _readable(cls, name):
    try:
        getattr(cls, name)
    except AttributeError:
        return False
    return True


def weight_array(shape):
    """A fixed, non-uniform loss weight (the same numbers the PyTorch reference used)."""
    return np.arange(int(np.prod(shape))).reshape(shape) % 7 - 3.0


# How learners spell "this leaf wants its gradient", in the constructor or as an attribute.
GRAD_FLAGS = ("requires_grad", "require_grad", "requiresGrad", "needs_grad", "track_grad")


def _requires_grad_keyword(cls):
    """The constructor's keyword for a leaf that wants its gradient, or "" (torch's name when it takes **kwargs)."""
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return ""
    named = [p.name for p in params if p.name in GRAD_FLAGS]
    if named:
        return named[0]
    return "requires_grad" if any(p.kind is p.VAR_KEYWORD for p in params) else ""

"""The doctor page's box finds a pasted engine by itself (minigrad/doctor/pasted.py): learners'
classes as they paste them (micrograd's Value, a Tensor holding arrays, an ndarray subclass, a
whole engine in one paste, classes named otherwise), or it says which lines to add."""

import inspect
import re
from pathlib import Path

import micrograd.engine
import pytest

from minigrad.doctor import pasted

ENGINES = Path(__file__).resolve().parent / "learner_engines"
CLASSIC = ENGINES / "classic" / "src" / "minigrad"


def source(*files):
    """Files of a learner's package pasted one after the other into one box: their imports of each other go."""
    return "\n\n".join(re.sub(r"^from \.\w* import .*$", "", f.read_text(), flags=re.M) for f in files)


def run_pasted(code, called=False):
    """As the page runs a box: begin(), the code in a fresh `__main__` namespace, then after(globals())."""
    pasted.begin()
    namespace = {"__name__": "__main__"}
    exec(compile(code, "<block 1>", "exec"), namespace)
    return namespace, pasted.after(namespace, lang=None)


MICROGRAD = inspect.getsource(micrograd.engine)
TENSOR = source(CLASSIC / "tensor.py")
WHOLE = source(*(CLASSIC / f"{m}.py" for m in ("engine", "tensor", "nn", "optim", "functional")))
NDARRAY = source(ENGINES / "ndarray" / "arraygrad" / "tensor.py")


def found(code):
    namespace = {"__name__": "__main__"}
    exec(compile(code, "<block 1>", "exec"), namespace)
    return {part: [c.__name__ for c in chosen] for part, chosen in pasted.find_engine(pasted.defined_classes(namespace)).items()}


@pytest.mark.parametrize("code, expected", [
    (MICROGRAD, {"Value": ["Value"], "Tensor": []}),
    (TENSOR, {"Value": [], "Tensor": ["Tensor"]}),
    (NDARRAY, {"Value": [], "Tensor": ["Tensor"]}),
    (WHOLE, {"Value": ["Value"], "Tensor": ["Tensor"]}),
    (MICROGRAD.replace("Value", "Scalar"), {"Value": ["Scalar"], "Tensor": []}),
    (TENSOR + "\n\nclass Parameter(Tensor):\n    pass\n", {"Value": [], "Tensor": ["Tensor"]}),  # the base, not its subclass
], ids=["micrograd", "tensor-data-ndarray", "ndarray-subclass", "value-and-tensor", "named-otherwise", "with-a-subclass"])
def test_the_engine_classes_are_found_by_what_they_do(code, expected):
    assert found(code) == expected


def test_a_tensor_whose_constructor_wants_more_than_a_number_is_told_by_its_own_names():
    code = ("class Arr:\n    def __init__(self, data, device):\n        self.data = data\n"
            "    def __add__(self, o): pass\n    def __mul__(self, o): pass\n    def __matmul__(self, o): pass\n"
            "    def backward(self): pass\n")
    assert found(code) == {"Value": [], "Tensor": ["Arr"]}


def test_a_constructor_that_exits_does_not_end_the_search():
    code = ("import sys\n\nclass Box:\n    def __init__(self, data):\n        sys.exit('no')\n"
            "    def __add__(self, o): pass\n    def __mul__(self, o): pass\n    def backward(self): pass\n")
    assert found(code) == {"Value": ["Box"], "Tensor": []}


def test_micrograd_pasted_without_calling_lines_gets_the_report(capsys):
    _, diagnosis = run_pasted(MICROGRAD)
    out = capsys.readouterr().out
    assert out.startswith("Engine under test: Value = Value.\n"), out[:300]
    assert diagnosis is not None and not diagnosis.caught


def test_a_class_named_otherwise_with_a_bug_is_checked_and_the_bug_named(capsys):
    code = MICROGRAD.replace("Value", "Scalar").replace("self.grad += (other * self.data**(other-1)) * out.grad",
                                                         "self.grad += (other * self.data**other) * out.grad")
    assert code != MICROGRAD.replace("Value", "Scalar")
    _, diagnosis = run_pasted(code)
    assert capsys.readouterr().out.startswith("Engine under test: Value = Scalar.\n")
    assert diagnosis.diagnoses[0][0] == "pow-exponent-off-by-one"


def test_the_report_speaks_the_language_it_is_given(capsys):
    pasted.begin()
    namespace = {"__name__": "__main__"}
    exec(compile(MICROGRAD, "<block 1>", "exec"), namespace)
    pasted.after(namespace, lang="es")
    assert capsys.readouterr().out.startswith("Motor bajo prueba: Value = Value.\n")


def test_a_whole_engine_pasted_in_one_box_gives_the_checks_its_layers_optimizers_and_losses():
    namespace = {"__name__": "__main__"}
    exec(compile(WHOLE, "<block 1>", "exec"), namespace)
    parts = pasted.modules(namespace)
    assert {"Linear", "Sequential", "Tanh", "ReLU", "Dropout", "LayerNorm", "BatchNorm1d"} <= set(vars(parts["nn"]))
    assert set(vars(parts["optim"])) == {"SGD", "Adam", "AdamW"}
    assert "mse_loss" in vars(parts["functional"])
    assert "Tensor" not in vars(parts["nn"])  # only the names the checks ask for


def test_only_a_value_passes_no_empty_nn_optim_or_functional():
    namespace = {"__name__": "__main__"}
    exec(compile(MICROGRAD, "<block 1>", "exec"), namespace)
    assert pasted.modules(namespace) == {}


@pytest.mark.parametrize("lang, expected", [
    ("en", "The doctor found no Value or Tensor among your classes (Point, Shape): it looks for a class with backward()"),
    ("es", "El doctor no encontró un Value ni un Tensor entre tus clases (Point, Shape): busca una clase con backward()"),
])
def test_nothing_recognisable_says_which_lines_to_add_in_the_page_language(capsys, lang, expected):
    pasted.begin()
    namespace = {"__name__": "__main__"}
    exec("class Point:\n    def __add__(self, o): return self\n\nclass Shape:\n    def backward(self): pass\n", namespace)
    assert pasted.after(namespace, lang=lang) is None
    out = capsys.readouterr().out
    assert out.startswith(expected), out
    yours = "TuValue" if lang == "es" else "YourValue"
    assert out.endswith(f"\n\nfrom minigrad.doctor import check_engine\n\ncheck_engine(Value={yours})\n")


def test_two_classes_that_could_both_be_the_value_are_named_not_guessed(capsys):
    code = MICROGRAD.replace("Value", "Scalar") + "\n\n" + MICROGRAD.replace("Value", "Other")
    _, diagnosis = run_pasted(code)
    assert diagnosis is None
    out = capsys.readouterr().out
    assert out.startswith("Several of your classes could be the Value (Scalar, Other): say which one"), out
    assert out.endswith("check_engine(Value=Scalar)\n")


def test_of_two_value_like_classes_the_one_called_value_is_the_value():
    assert found(MICROGRAD + "\n\n" + MICROGRAD.replace("Value", "Other")) == {"Value": ["Value"], "Tensor": []}


def test_code_that_defines_no_class_is_left_alone(capsys):
    _, diagnosis = run_pasted("import math\nprint(math.pi)\n")
    assert diagnosis is None and capsys.readouterr().out == "3.141592653589793\n"


def test_code_that_calls_the_doctor_itself_is_not_checked_twice(capsys):
    code = MICROGRAD + "\n\nfrom minigrad.doctor import check_engine\ncheck_engine(Value)\n"
    _, diagnosis = run_pasted(code)
    assert diagnosis is None
    assert capsys.readouterr().out.count("Engine under test:") == 1

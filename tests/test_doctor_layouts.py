"""The doctor on engines laid out otherwise than minigrad. One as PyTorch is, and typed so: float32 by default, the layers in a
package `nn/` with the losses in `nn/functional.py`, the optimizers in `optim/`, a softmax that
requires its `dim`, and a sum named `sum(axes=...)` (nptorch, windshadow233/autograd-with-numpy,
spells it so).

The engine is the `functions` learner style (tests/learner_engines) moved into that layout and
turned to float32, healthy and with a catalogue bug planted by its diff first. Float32 is
compared at float32's precision (not reported as torch mismatches), the parts are found where
torch keeps them, and a planted bug is still named first. And one written as scripts are: files
that import each other by plain name beside an __init__.py."""

import re

import pytest

from minigrad.doctor import check_folder
from minigrad.doctor.loading import load_engine
from tests.learner_engines.harness import package_copy

PLANTED = ["sum-forgets-reduced-axis", "skip-unbroadcast", "overwrite-grad", "batchnorm-without-eps", "sgd-sign-flipped",
           "softmax-over-the-batch"]


def torch_layout(root, slug=None):
    package = package_copy("functions", root, slug)
    tensor = package / "tensor.py"
    text = tensor.read_text(encoding="utf-8").replace("np.float64", "np.float32")
    text = re.sub(r"def sum\(self, axis=None", "def sum(self, axes=None", text).replace(
        "return Sum.apply(self, axis=axis,", "return Sum.apply(self, axis=axes,")
    tensor.write_text(text, encoding="utf-8")
    (package / "nn").mkdir()
    (package / "optim").mkdir()
    for source, target in (("nn.py", "nn/__init__.py"), ("functional.py", "nn/functional.py"), ("optim.py", "optim/__init__.py")):
        moved = (package / source).read_text(encoding="utf-8").replace("from .tensor import", "from ..tensor import")
        moved = moved.replace("def softmax(x, axis=-1):", "def softmax(x, dim):  # torch's F.softmax asks for it\n    axis = dim")
        (package / target).write_text(moved, encoding="utf-8")
        (package / source).unlink()
    (package / "nn" / "__init__.py").write_text((package / "nn" / "__init__.py").read_text(encoding="utf-8") + "\nfrom . import functional\n")
    init = package / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8").replace("from . import functional, nn, optim", "from . import nn, optim"))
    return package


def test_the_parts_are_found_where_torch_keeps_them(tmp_path):
    package = torch_layout(tmp_path)
    parts, where = load_engine(package)
    assert set(parts) == {"Tensor", "nn", "optim", "functional"}
    assert where["nn"] == str(package / "nn") and where["functional"].endswith("nn/functional.py")
    assert parts["Tensor"](1.0).data.dtype.name == "float32"


def test_a_healthy_float32_engine_is_not_caught(tmp_path, capsys):
    diagnosis = check_folder(torch_layout(tmp_path))
    report = capsys.readouterr().out
    assert not diagnosis.caught and not diagnosis.crashed, report
    assert "does not fit your engine" not in report, report  # sum(axes=) and the rest are reached


@pytest.mark.parametrize("slug", PLANTED)
def test_a_bug_planted_in_it_is_named_first(slug, tmp_path, capsys):
    diagnosis = check_folder(torch_layout(tmp_path, slug))
    capsys.readouterr()
    assert diagnosis.suspects and diagnosis.suspects[0][0] == slug, diagnosis.suspects[:3]


def scripts_layout(root, slug=None):
    """The classic style as a learner who runs scripts from inside the folder writes it: `from tensor
    import Tensor` between the files, an `__init__.py` beside them all the same (evintunador's
    autograd_engine_tutorial has one such folder)."""
    package = package_copy("classic", root, slug)
    for path in package.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name == "__init__.py":
            text = "from engine import Value\nfrom tensor import Tensor\nimport functional, nn, optim\n"
        path.write_text(text.replace("from .tensor import", "from tensor import").replace("from .engine import", "from engine import"),
                        encoding="utf-8")
    return package


def test_files_that_import_each_other_by_plain_name_are_read_as_their_scripts_do(tmp_path, capsys):
    package = scripts_layout(tmp_path)
    parts, where = load_engine(package)
    assert set(parts) == {"Value", "Tensor", "nn", "optim", "functional"}, where
    diagnosis = check_folder(scripts_layout(tmp_path / "again", "skip-unbroadcast"))
    capsys.readouterr()
    assert diagnosis.suspects[0][0] == "skip-unbroadcast", diagnosis.suspects[:3]


def test_a_missing_module_that_is_no_file_of_the_folder_is_named_and_the_rest_loads(tmp_path):
    package = scripts_layout(tmp_path)
    (package / "nn.py").write_text("import nowhere_to_be_found\n" + (package / "nn.py").read_text(encoding="utf-8"))
    parts, where = load_engine(package)
    assert "nn" not in parts and "Tensor" in parts
    assert where["not loaded"] == f"{package}/nn.py (ModuleNotFoundError: No module named 'nowhere_to_be_found')"

"""Nothing in this folder is a test: the engines are fixtures that
tests/test_learner_engines.py loads under aliases (harness.load_package).

pytest-markdown-docs imports every .py file pytest collects, to read its
docstrings; classic's package is called `minigrad`, and a file given by
path (`pytest tests/learner_engines/classic/src/minigrad/engine.py`) was
imported as a submodule of the real minigrad. So pytest collects nothing here."""

collect_ignore_glob = ["*"]

"""Shared test code: builders of test data and of real objects over it, reference checks used by
more than one test file, and the source-tree checks (layers, shape). Plain functions and
constants; the pytest fixtures that use them live in ``tests/conftest.py``. Test files import from
here (and from ``tests/fakes/``, the protocol fakes), never from one another."""

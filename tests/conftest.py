"""Shared by every test: tests/ is importable (for the tfref helper), and each test starts with an
empty default graph, so names like Const_1 never depend on which test ran before."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import graphlab as tf  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()

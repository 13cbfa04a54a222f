"""Each test starts with an empty default graph and no default session."""
import pytest

import graphlab as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()

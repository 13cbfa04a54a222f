"""Make tests/ importable so tests here can use the shared tfref helper."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

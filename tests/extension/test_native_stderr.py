"""native_stderr_hidden: what a native library writes to file descriptor 2 inside the block is gone (the
start-up notices lessons 10 and 11 leave out), what is written after it shows again."""
import subprocess
import sys
import textwrap

from tests import tfref

PROGRAM = textwrap.dedent("""
    import os
    from graphlab_ipython.native_stderr import native_stderr_hidden
    os.write(2, b"before\\n")
    with native_stderr_hidden():
        os.write(2, b"native notice\\n")     # as TF's C++ start-up messages are written
    os.write(2, b"after\\n")
    try:
        with native_stderr_hidden():
            raise ValueError("still raised")
    except ValueError as e:
        os.write(2, ("caught %s\\n" % e).encode())
""")


def test_native_writes_inside_the_block_are_hidden_and_stderr_comes_back():
    env = tfref.tf_env_with_graphlab()
    proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == ["before", "after", "caught still raised"]

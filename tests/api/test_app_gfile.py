"""tf.gfile and tf.app as TF1 tutorial scripts use them."""
import subprocess
import sys
import textwrap

import pytest

import graphlab as tf


def test_gfile_round_trip_and_not_found(tmp_path):
    d = str(tmp_path / "logs" / "run1")
    assert not tf.gfile.Exists(d)
    tf.gfile.MakeDirs(d)
    assert tf.gfile.IsDirectory(d)
    with tf.gfile.GFile(d + "/notes.txt", "w") as f:
        f.write("hello")
    assert tf.gfile.ListDirectory(d) == ["notes.txt"]
    assert tf.gfile.GFile(d + "/notes.txt").read() == "hello"
    tf.gfile.DeleteRecursively(str(tmp_path / "logs"))
    assert not tf.gfile.Exists(d)
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        tf.gfile.GFile(d + "/missing.txt")


def test_app_run_parses_flags_and_calls_main(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import graphlab as tf
        flags = tf.app.flags
        flags.DEFINE_integer("max_steps", 10, "How many steps.")
        flags.DEFINE_float("learning_rate", 0.01, "Step size.")
        flags.DEFINE_boolean("fake_data", False, "Use fake data.")
        FLAGS = flags.FLAGS

        def main(argv):
            print(FLAGS.max_steps, FLAGS.learning_rate, FLAGS.fake_data, argv[1:])

        if __name__ == "__main__":
            tf.app.run()
    """))
    out = subprocess.run([sys.executable, str(script), "--max_steps=3", "--fake_data", "extra"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3 0.01 True ['extra']"

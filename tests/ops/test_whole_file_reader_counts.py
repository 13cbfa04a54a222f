"""WholeFileReader's counters as TensorFlow 2.21 keeps them (observed there): each file read counts as one
record produced and one work unit completed in the same run; a file that cannot be read counts as neither."""
import graphlab as tf


def test_whole_file_reader_counts_each_file_once_and_skips_unreadable(tmp_path):
    names = []
    for i in range(3):
        path = tmp_path / ("f%d" % i)
        path.write_text("x" * i)
        names.append(str(path))
    with tf.Graph().as_default():
        q = tf.FIFOQueue(10, tf.string)
        fill = q.enqueue_many([names + [str(tmp_path / "missing")]])
        reader = tf.WholeFileReader()
        key, value = reader.read(q)
        counts = [reader.num_records_produced(), reader.num_work_units_completed()]
        with tf.Session() as s:
            s.run(fill)
            for i in range(3):
                got_key, got_value = s.run([key, value])
                assert (got_key.decode(), got_value) == (names[i], b"x" * i)
                assert s.run(counts) == [i + 1, i + 1]
            try:
                s.run(value)
                raise AssertionError("reading a missing file should fail")
            except tf.errors.NotFoundError as e:
                assert "missing" in e.message
            assert s.run(counts) == [3, 3]

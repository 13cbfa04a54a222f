"""TensorBoard events files: Event protos in TFRecord framing (graphlab/formats/tfrecord.py), written and read
by our own code. The file is named ``events.out.tfevents.<10-digit time>.<host>``
and starts with an Event holding ``file_version = "brain.Event:2"``, as TF's EventsWriter does.
"""
import os
import socket
import time

from graphlab.formats.protos import event_pb2
from graphlab.formats.tfrecord import frame, read_records  # noqa: F401  (TF's record framing)

FILE_VERSION = "brain.Event:2"


def summary_iterator(path):
    """``tf.train.summary_iterator``: the Event protos of an events file, in order."""
    from graphlab.framework.graph_io import parse_message
    for data in read_records(path):
        yield parse_message(event_pb2.Event, data, path)


class EventsWriter:
    """Appends framed Events to a new file in ``logdir`` (created if missing)."""

    def __init__(self, logdir, filename_suffix=""):
        os.makedirs(logdir, exist_ok=True)
        self.path = os.path.join(logdir, "events.out.tfevents.%010d.%s%s"
                                 % (int(time.time()), socket.gethostname(), filename_suffix))
        self._file = open(self.path, "ab")
        self.write(event_pb2.Event(wall_time=float(int(time.time())), file_version=FILE_VERSION))
        self.flush()

    def write(self, event):
        self._file.write(frame(event.SerializeToString()))

    def flush(self):
        self._file.flush()

    def close(self):
        if not self._file.closed:
            self._file.close()

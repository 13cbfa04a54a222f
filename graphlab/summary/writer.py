"""``tf.summary.FileWriter``: events files TensorBoard (and TF's summary_iterator) read."""
import time

from graphlab.formats.protos import event_pb2, summary_pb2
from graphlab.summary.events import EventsWriter


class FileWriter:
    """Writes Events to ``logdir/events.out.tfevents.<time>.<host>``; with a graph, its GraphDef and
    MetaGraphDef come first, as TF1's FileWriter writes them."""

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None, filename_suffix=None,
                 session=None):
        self._logdir = str(logdir)
        self._writer = EventsWriter(self._logdir, filename_suffix or "")
        self._closed = False
        self._run_tags = set()
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def get_logdir(self):
        return self._logdir

    def _event(self, step=None, **what):
        if self._closed:
            raise RuntimeError("FileWriter is closed: create a new one (or call reopen()) to write more events")
        event = event_pb2.Event(wall_time=time.time(), **what)
        if step is not None:
            event.step = int(step)
        self._writer.write(event)

    def add_graph(self, graph=None, global_step=None, graph_def=None):
        """The graph for TensorBoard's Graphs tab (GraphDef with shapes, then the MetaGraphDef)."""
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        if graph is not None:
            graph_def = graph.as_graph_def(add_shapes=True)
        if graph_def is None:
            raise TypeError("add_graph needs a graph or a graph_def")
        self._event(global_step, graph_def=graph_def.SerializeToString())
        if graph is not None:
            from graphlab.framework.meta_graph import export_meta_graph
            meta = export_meta_graph(graph=graph, graph_def=graph_def)
            self._event(global_step, meta_graph_def=meta.SerializeToString())

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """A MetaGraphDef event on its own (TF's Supervisor writes one carrying its Saver's SaverDef)."""
        from graphlab.formats.protos import meta_graph_pb2
        if not isinstance(meta_graph_def, meta_graph_pb2.MetaGraphDef):
            raise TypeError("meta_graph_def must be type MetaGraphDef, saw type: %s" % type(meta_graph_def))
        self._event(global_step, meta_graph_def=meta_graph_def.SerializeToString())

    def add_summary(self, summary, global_step=None):
        """A Summary proto, or the serialized bytes a summary op returned from Session.run."""
        if isinstance(summary, (bytes, bytearray)):
            summary = summary_pb2.Summary.FromString(bytes(summary))
        elif hasattr(summary, "item") and not isinstance(summary, summary_pb2.Summary):
            summary = summary_pb2.Summary.FromString(summary.item())
        self._event(global_step, summary=summary)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """A traced run's RunMetadata under ``tag`` (TensorBoard shows it with the graph); a tag once."""
        if tag in self._run_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._run_tags.add(tag)
        tagged = event_pb2.TaggedRunMetadata(tag=tag, run_metadata=run_metadata.SerializeToString())
        self._event(global_step, tagged_run_metadata=tagged)

    def add_session_log(self, session_log, global_step=None):
        """A SessionLog (START, STOP, CHECKPOINT) event: TensorBoard restarts its curves at a START."""
        self._event(global_step, session_log=session_log)

    def add_event(self, event):
        self._writer.write(event)

    def flush(self):
        self._writer.flush()

    def close(self):
        if not self._closed:
            self._writer.flush()
            self._writer.close()
            self._closed = True

    def reopen(self):
        if self._closed:
            self._writer = EventsWriter(self._logdir)
            self._closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FileWriterCache:
    """``tf.summary.FileWriterCache``: one FileWriter per log directory, shared by the hooks that write there."""
    _cache = {}

    @staticmethod
    def get(logdir):
        writer = FileWriterCache._cache.get(logdir)
        if writer is None:
            from graphlab.framework.graph import get_default_graph
            writer = FileWriterCache._cache[logdir] = FileWriter(logdir, graph=get_default_graph())
        return writer

    @staticmethod
    def clear():
        for writer in FileWriterCache._cache.values():
            writer.close()
        FileWriterCache._cache.clear()

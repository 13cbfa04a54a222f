"""``tf.saved_model.builder.SavedModelBuilder``: writes export_dir/saved_model.pb (a SavedModel proto
holding one MetaGraphDef per tag set) and export_dir/variables/variables.{index,data-00000-of-00001}.

The variables are written first and saved_model.pb last, through a rename, so a directory with a
saved_model.pb always has complete variables.
"""
import os

from graphlab.framework import graph_io, meta_graph
from graphlab.formats import text_format as tf_text
from graphlab.formats.protos import saved_model_pb2
from graphlab.saved_model import constants


class SavedModelBuilder:
    def __init__(self, export_dir):
        export_dir = os.fspath(export_dir)
        if os.path.exists(export_dir):
            if os.listdir(export_dir):
                raise AssertionError(
                    "Export directory already exists, and isn't empty. Please choose a different export "
                    "directory, or delete all the contents of the specified directory: %s" % export_dir)
        else:
            os.makedirs(export_dir)
        self._export_dir = export_dir
        self._saved_model = saved_model_pb2.SavedModel(
            saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._has_saved_variables = False
        self._saver_def = None

    def _variables_prefix(self):
        return os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)

    def _add(self, sess_graph, tags, signature_def_map, main_op, train_op, clear_devices, saver_def):
        from graphlab.framework.graph import GraphKeys  # noqa: F401
        graph = sess_graph
        if main_op is not None:
            graph.clear_collection(constants.MAIN_OP_KEY)
            graph.add_to_collection(constants.MAIN_OP_KEY, main_op)
        if train_op is not None:
            graph.clear_collection(constants.TRAIN_OP_KEY)
            graph.add_to_collection(constants.TRAIN_OP_KEY, train_op)
        for key, sd in (signature_def_map or {}).items():
            if not sd.inputs and not sd.outputs:
                raise AttributeError("The SignatureDef %r has neither inputs nor outputs" % key)
        mgd = meta_graph.create_meta_graph_def(graph, saver_def, clear_devices=clear_devices)
        mgd.meta_info_def.tags.extend(tags)
        for key, sd in (signature_def_map or {}).items():
            mgd.signature_def[key].CopyFrom(sd)
        self._saved_model.meta_graphs.append(mgd)

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None, assets_collection=None,
                                     legacy_init_op=None, clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None, train_op=None):
        """Save the session's variables and the graph (with `tags` and signatures); call once."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. "
                                 "Please invoke `add_meta_graph()` instead.")
        from graphlab.train.saver import Saver
        with sess.graph.as_default():
            saver = saver or Saver(allow_empty=True)
        os.makedirs(os.path.dirname(self._variables_prefix()), exist_ok=True)
        saver.save(sess, self._variables_prefix(), write_meta_graph=False, write_state=False)
        self._saver_def = saver.saver_def
        self._add(sess.graph, tags, signature_def_map, main_op or legacy_init_op, train_op, clear_devices,
                  saver.saver_def)
        self._has_saved_variables = True

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None, legacy_init_op=None,
                       clear_devices=False, main_op=None, strip_default_attrs=False, saver=None,
                       train_op=None):
        """Another tag set over the current default graph, sharing the variables already saved."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. "
                                 "Please invoke `add_meta_graph_and_variables()` first.")
        from graphlab.framework import graph as graph_mod
        saver_def = saver.saver_def if saver is not None else self._saver_def
        self._add(graph_mod.get_default_graph(), tags, signature_def_map, main_op or legacy_init_op,
                  train_op, clear_devices, saver_def)

    def save(self, as_text=False):
        """Write saved_model.pb (or .pbtxt); returns its path (as bytes, like TF)."""
        name = constants.SAVED_MODEL_FILENAME_PBTXT if as_text else constants.SAVED_MODEL_FILENAME_PB
        path = os.path.join(self._export_dir, name)
        data = tf_text.to_text(self._saved_model).encode("utf-8") if as_text \
            else self._saved_model.SerializeToString()
        graph_io.write_atomic(path, data)
        for meta in self._saved_model.meta_graphs:
            graph_io.notify_export("SavedModel", self._export_dir, meta.graph_def)
        return path.encode("utf-8")


# TF 2 spells it builder.SavedModelBuilder and saved_model.Builder.
Builder = SavedModelBuilder

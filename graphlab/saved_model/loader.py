"""``tf.saved_model.loader.load``: pick the MetaGraphDef whose tag set equals the request, import it into
the session's graph, restore the variables from export_dir/variables/variables, run the main op."""
import os

from graphlab.framework import graph_io
from graphlab.formats import text_format as tf_text
from graphlab.formats.errors import DataLossError, NotFoundError
from graphlab.formats.protos import saved_model_pb2
from graphlab.saved_model import constants
from graphlab.train import saver as saver_mod


def read_saved_model(export_dir):
    export_dir = os.fspath(export_dir)
    pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    pbtxt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    if os.path.exists(pb):
        return graph_io.read_message(saved_model_pb2.SavedModel, pb)
    if os.path.exists(pbtxt):
        return tf_text.read_text(pbtxt, saved_model_pb2.SavedModel)
    raise OSError("SavedModel file does not exist at: %s%s{%s|%s}" % (
        export_dir, os.sep, constants.SAVED_MODEL_FILENAME_PBTXT, constants.SAVED_MODEL_FILENAME_PB))


def maybe_saved_model_directory(export_dir):
    export_dir = os.fspath(export_dir)
    return any(os.path.exists(os.path.join(export_dir, n)) for n in
               (constants.SAVED_MODEL_FILENAME_PB, constants.SAVED_MODEL_FILENAME_PBTXT))


def _find_meta_graph(saved_model, tags, export_dir):
    wanted = set(tags)
    for mgd in saved_model.meta_graphs:
        if set(mgd.meta_info_def.tags) == wanted:
            return mgd
    available = [sorted(m.meta_info_def.tags) for m in saved_model.meta_graphs]
    raise RuntimeError("MetaGraphDef associated with tags %s could not be found in SavedModel, with available "
                       "tags '%s'. To inspect available tag-sets in the SavedModel, please use the SavedModel "
                       "CLI: `saved_model_cli`." % (", ".join(repr(t) for t in sorted(wanted)), available))


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Load the tagged meta graph and variables into `sess`; returns the MetaGraphDef (its signature_def
    maps serving keys to tensor names)."""
    if isinstance(tags, str):
        tags = [tags]
    saved_model = read_saved_model(export_dir)
    mgd = _find_meta_graph(saved_model, tags, export_dir)
    with sess.graph.as_default():
        try:
            saver = saver_mod.import_meta_graph(mgd, import_scope=import_scope, **saver_kwargs)
        except DataLossError as e:
            raise DataLossError(None, None, e.message.replace("<MetaGraphDef>", os.path.join(
                os.fspath(export_dir), constants.SAVED_MODEL_FILENAME_PB))) from None
        prefix = os.path.join(os.fspath(export_dir), constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)
        if saver is not None:
            if not os.path.exists(prefix + ".index"):
                raise NotFoundError(None, None, "SavedModel %s has a saver but no variables at %s.index"
                                    % (export_dir, prefix))
            saver.restore(sess, prefix)
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            ops = sess.graph.get_collection(key)
            if ops:
                sess.run(ops[0])
                break
    return mgd

"""``tf.saved_model.simple_save``: a serving SavedModel with one predict signature, in one call."""
from graphlab.saved_model import signature_constants, signature_def_utils, tag_constants
from graphlab.saved_model.builder import SavedModelBuilder


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Save the session's graph and variables under tag "serve" with signature "serving_default"."""
    signature_def_map = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                         signature_def_utils.predict_signature_def(inputs, outputs)}
    b = SavedModelBuilder(export_dir)
    b.add_meta_graph_and_variables(session, tags=[tag_constants.SERVING], signature_def_map=signature_def_map,
                                   main_op=legacy_init_op, clear_devices=True)
    b.save()

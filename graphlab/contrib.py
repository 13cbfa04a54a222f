"""``tf.contrib``: the few TF1 contrib helpers tutorials call, re-exported from graphlab's own modules.

Only ``tf.contrib.framework``'s checkpoint helpers exist (``list_variables``, ``load_variable``,
``load_checkpoint``); they are graphlab.train.checkpoint_utils under their contrib names.
"""
import types

from graphlab.train import checkpoint_utils as _ckpt

framework = types.SimpleNamespace(
    list_variables=_ckpt.list_variables,
    load_variable=_ckpt.load_variable,
    load_checkpoint=_ckpt.load_checkpoint,
)

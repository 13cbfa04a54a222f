"""The parts of TF1's public API that graphlab leaves out on purpose, each with the reason.

Every name here becomes a stand-in (graphlab.framework.omitted) in its namespace, unless that namespace
defines it for real: using it raises ``tf.errors.UnimplementedError`` saying why, so a program stops with
a sentence instead of an AttributeError. bench/api_coverage.py counts these names apart from the ones
graphlab provides. A namespace module calls ``install(globals(), "tf.nn")`` as its last line.
"""
from graphlab.framework.omitted import omit_all

_GPU = "graphlab runs every op with numpy on the CPU: there are no GPUs or TPUs to target"
_TPU = "TPUs and the XLA/MLIR compilers have no counterpart in a numpy engine"
_DIST = "graphlab runs one process: there are no clusters, servers, replicas or distribution strategies"
_SERVER = ("graphlab runs one process and starts no TensorFlow servers: build the cluster's graph here "
           "(tf.train.ClusterSpec, tf.device(tf.train.replica_device_setter(...))), export it with its checkpoint, and "
           "run it on a real TensorFlow cluster that `graphlab cluster` starts on this machine (see lesson 11)")
_QUANT = ("quantized arithmetic (qint8 ops, quantizing, fake-quant training) is an inference optimisation graphlab "
          "does not model; it only reads quantized weights back, with tf.dequantize")
_EAGER = "graphlab teaches TF1 graph mode: eager execution and TF2's tf.function/GradientTape are not part of it"
_NATIVE = "graphlab's kernels are numpy: TensorFlow's compiled C++ op and file-system libraries cannot be loaded"
_CTC = "CTC losses and decoders are not implemented in graphlab (speech models are outside its lessons)"
_TF2_CKPT = ("TF2's object-based checkpoints (tf.train.Checkpoint) are not implemented; tf.train.Saver writes "
             "the name-based checkpoints TF1 programs use")
_TF2_SAVEDMODEL = ("TF2's object-based SavedModel (tf.saved_model.save/load_v2) is not implemented; "
                   "tf.saved_model.Builder / simple_save / loader.load write and read TF1 SavedModels")
_LITE = "TensorFlow Lite (converting models for phones and microcontrollers) has no counterpart in graphlab"
_RAGGED = "ragged tensors are not implemented in graphlab (its tensors are dense, or SparseTensor values)"
_SDCA = "the SDCA linear-model solver is an Estimator internal that graphlab does not implement"
_TOOLING = "a TensorFlow build and tooling module with no counterpart in graphlab"

OMISSIONS = {
    "tf": [
        ("tpu xla mlir", _TPU),
        ("distribute", _DIST),
        ("quantize quantize_v2 quantized_concat fake_quant_with_min_max_args "
         "fake_quant_with_min_max_args_gradient fake_quant_with_min_max_vars fake_quant_with_min_max_vars_gradient "
         "fake_quant_with_min_max_vars_per_channel fake_quant_with_min_max_vars_per_channel_gradient", _QUANT),
        ("enable_eager_execution enable_v2_behavior GradientTape function autograph wrap_function Module "
         "TypeSpec TensorSpec SparseTensorSpec IndexedSlicesSpec TensorArraySpec OptionalSpec NoneTensorSpec "
         "type_spec_from_value is_symbolic_tensor recompute_grad grad_pass_through vectorized_map", _EAGER),
        ("enable_control_flow_v2", "graphlab builds TF1's control flow (Switch/Merge, Enter/Exit frames) only"),
        ("enable_tensor_equality", "graphlab keeps TF1's Tensor equality (by identity), so tensors stay "
                                   "usable as dict keys"),
        ("enable_v2_tensorshape", "graphlab's TensorShape is TF1's: dimensions are Dimension objects"),
        ("load_library load_op_library load_file_system_library", _NATIVE),
        ("lite", _LITE),
        ("ragged RaggedTensor RaggedTensorSpec ragged_fill_empty_rows ragged_fill_empty_rows_grad", _RAGGED),
        ("mixed_precision", _GPU),
        ("sysconfig user_ops profiler resource_loader types", _TOOLING),
        ("create_partitioned_variables fixed_size_partitioner min_max_variable_partitioner "
         "variable_axis_size_partitioner", _DIST + " (partitioned variables shard a variable over parameter "
                                                   "servers; graphlab keeps every variable whole)"),
        ("nondifferentiable_batch_function", "request batching is a TF Serving feature; graphlab runs no server"),
        ("CriticalSection py_function", _EAGER),
        ("feature_column", "feature columns are the Estimator input layer, which graphlab does not implement; "
                           "build the input tensors with tf.layers, tf.one_hot and tf.nn.embedding_lookup"),
        ("distributions", "tf.distributions was deprecated in TF1 in favour of TensorFlow Probability and is not "
                          "part of graphlab; tf.random has the samplers"),
    ],
    "tf.nn": [
        ("ctc_beam_search_decoder ctc_beam_search_decoder_v2 ctc_greedy_decoder ctc_loss ctc_loss_v2 "
         "ctc_unique_labels collapse_repeated", _CTC),
        ("quantized_avg_pool quantized_conv2d quantized_max_pool quantized_relu_x", _QUANT),
        ("static_state_saving_rnn", "it needs a SequenceQueueingStateSaver from tf.contrib.training, which "
                                    "graphlab does not implement; use tf.nn.dynamic_rnn"),
    ],
    "tf.quantization": [
        ("experimental fake_quant_with_min_max_args fake_quant_with_min_max_args_gradient fake_quant_with_min_max_vars "
         "fake_quant_with_min_max_vars_gradient fake_quant_with_min_max_vars_per_channel "
         "fake_quant_with_min_max_vars_per_channel_gradient quantize quantize_and_dequantize "
         "quantize_and_dequantize_v2 quantized_concat", _QUANT),
    ],
    "tf.io": [
        ("RaggedFeature", _RAGGED),
    ],
    "tf.train": [
        ("Server ServerDef", _SERVER),
        ("Checkpoint CheckpointManager CheckpointOptions", _TF2_CKPT),
        ("sdca_fprint sdca_optimizer sdca_shrink_l1", _SDCA),
        ("do_quantize_training_on_graphdef", _QUANT),
    ],
    "tf.saved_model": [
        ("save load_v2 SaveOptions Asset", _TF2_SAVEDMODEL),
    ],
    "tf.summary": [
        ("all_v2_summary_ops initialize", "TF2's summary writers are not implemented; tf.summary.FileWriter "
                                          "and the TF1 summary ops write the event files"),
    ],
    "tf.random": [
        ("Generator get_global_generator set_global_generator create_rng_state Algorithm",
         "TF2's stateful Generator objects (resource variables holding an RNG state) are not part of "
         "graphlab's TF1 random ops; use the seeded tf.random_* ops"),
    ],
}


def install(namespace, prefix):
    """Add the stand-ins of ``prefix`` ("tf", "tf.nn" ...) to a namespace module's globals, leaving every name
    it defines for real alone."""
    for names, reason in OMISSIONS.get(prefix, ()):
        missing = " ".join(n for n in names.split() if n not in namespace)
        omit_all(namespace, prefix + ".", missing, reason)

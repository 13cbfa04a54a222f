"""``tf.nn``: neural-network ops (re-exports from graphlab.ops.nn_ops)."""
from graphlab.ops.array_ops import stop_gradient  # noqa: F401
from graphlab.ops.nn_ops import (bias_add, dropout, elu, l2_loss, leaky_relu, log_softmax, relu,  # noqa: F401
                                 relu6, sigmoid, sigmoid_cross_entropy_with_logits, softmax,
                                 softmax_cross_entropy_with_logits, softmax_cross_entropy_with_logits_v2,
                                 sparse_softmax_cross_entropy_with_logits, tanh)
from graphlab.ops.nn_ops import in_top_k, top_k  # noqa: F401,E402
from graphlab.ops.nn_ops import crelu, selu, silu, softplus, softsign, swish  # noqa: F401,E402
from graphlab.ops.conv_ops import (avg_pool, avg_pool2d, conv2d, conv2d_backprop_filter,  # noqa: F401,E402
                                   conv2d_backprop_input, max_pool, max_pool2d)
from graphlab.ops.nn_impl import (batch_normalization, embedding_lookup, l2_normalize, moments,  # noqa: F401,E402
                                  weighted_moments)
from graphlab.ops.nn_ops import local_response_normalization, lrn, xw_plus_b  # noqa: F401,E402
from graphlab.ops.nn_impl import weighted_cross_entropy_with_logits, zero_fraction  # noqa: F401,E402
from graphlab import rnn_cell  # noqa: F401,E402  (tf.nn.rnn_cell)
from graphlab.ops.rnn import static_bidirectional_rnn, static_rnn  # noqa: F401,E402
from graphlab.ops.dynamic_rnn import bidirectional_dynamic_rnn, dynamic_rnn  # noqa: F401,E402
from graphlab.ops.conv3d_ops import (avg_pool3d, conv3d, conv3d_backprop_filter_v2,  # noqa: F401,E402
                                     conv3d_transpose, max_pool3d)
from graphlab.ops.depthwise_conv_ops import (depthwise_conv2d_native,  # noqa: F401,E402
                                             depthwise_conv2d_native_backprop_filter,
                                             depthwise_conv2d_native_backprop_input)
from graphlab.ops.convolution import (atrous_conv2d, avg_pool1d, conv1d, conv2d_transpose,  # noqa: F401,E402
                                      convolution, depthwise_conv2d, max_pool1d, pool, separable_conv2d,
                                      with_space_to_batch)
from graphlab.ops.space_batch_ops import depth_to_space, space_to_batch, space_to_depth  # noqa: F401,E402
from graphlab.ops.batch_norm_ops import fused_batch_norm  # noqa: F401,E402
from graphlab.ops.candidate_sampling_ops import (all_candidate_sampler, compute_accidental_hits,  # noqa: F401,E402
                                                 fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
                                                 log_uniform_candidate_sampler, uniform_candidate_sampler)
from graphlab.ops.sampled_losses import nce_loss, sampled_softmax_loss  # noqa: F401,E402
# --- more of tf.nn (bench/api_coverage.py)
from graphlab.ops.conv3d_ops import conv3d_backprop_filter_v2 as conv3d_backprop_filter  # noqa: F401,E402
from graphlab.ops.depthwise_conv_ops import (  # noqa: F401,E402
    depthwise_conv2d_native_backprop_filter as depthwise_conv2d_backprop_filter,
    depthwise_conv2d_native_backprop_input as depthwise_conv2d_backprop_input)
from graphlab.ops.nn_impl import (avg_pool_v2, batch_norm_with_global_normalization,  # noqa: F401,E402
                                        compute_average_loss, conv1d_transpose, conv_transpose, log_poisson_loss,
                                        max_pool_v2, normalize_moments, relu_layer, scale_regularization_loss,
                                        sufficient_statistics)

from graphlab import omissions as _omissions  # noqa: E402
_omissions.install(globals(), "tf.nn")

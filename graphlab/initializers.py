"""``tf.initializers``: TF1's initializer classes under their short names, and the variable initializers."""
from graphlab.ops.init_ops import (Constant as constant, GlorotNormal as glorot_normal,  # noqa: F401
                                   GlorotUniform as glorot_uniform, Ones as ones, RandomNormal as random_normal,
                                   RandomUniform as random_uniform, TruncatedNormal as truncated_normal,
                                   VarianceScaling as variance_scaling, Zeros as zeros, he_normal, he_uniform,
                                   lecun_normal, lecun_uniform)
from graphlab.ops.init_ops import Orthogonal as orthogonal, UniformUnitScaling as uniform_unit_scaling  # noqa: F401
from graphlab.tf1_root import tables_initializer  # noqa: F401
from graphlab.ops.variables import global_variables_initializer as global_variables  # noqa: F401
from graphlab.ops.variables import local_variables_initializer as local_variables  # noqa: F401
from graphlab.ops.variables import variables_initializer as variables  # noqa: F401

"""``tf.train``: optimizers, learning-rate schedules and the global step (Saver and checkpoints are added
by graphlab.train's saver modules)."""
from graphlab.train.adadelta import AdadeltaOptimizer
from graphlab.train.adagrad import AdagradOptimizer
from graphlab.train.adam import AdamOptimizer
from graphlab.train.gradient_descent import GradientDescentOptimizer
from graphlab.train.learning_rate import (cosine_decay, cosine_decay_restarts, exponential_decay,
                                           inverse_time_decay, linear_cosine_decay, natural_exp_decay,
                                           piecewise_constant, polynomial_decay)
from graphlab.train.momentum import MomentumOptimizer
from graphlab.train.moving_averages import ExponentialMovingAverage
from graphlab.train.optimizer import Optimizer
from graphlab.train.rmsprop import RMSPropOptimizer
from graphlab.train.training_util import (assert_global_step, create_global_step, get_global_step,
                                          get_or_create_global_step, global_step)
from graphlab.train.checkpoint_utils import (NewCheckpointReader, checkpoint_exists, get_checkpoint_state,
                                             latest_checkpoint, list_variables, load_checkpoint, load_variable,
                                             update_checkpoint_state)
from graphlab.train.saver import Saver, export_meta_graph, import_meta_graph
from graphlab.framework.graph_io import write_graph
from graphlab.summary.events import summary_iterator  # noqa: E402  (tf.compat.v1.train.summary_iterator)
from graphlab.train.coordinator import Coordinator
from graphlab.train.queue_runner import QueueRunner, add_queue_runner, start_queue_runners
from graphlab.train.input import (batch, batch_join, input_producer, limit_epochs, match_filenames_once, maybe_batch,
                                  maybe_shuffle_batch, range_input_producer, shuffle_batch, shuffle_batch_join,
                                  slice_input_producer, string_input_producer)
from graphlab.train import queue_runner  # noqa: E402  (tf.train.queue_runner.QueueRunner ...)
from graphlab.formats.protos.example_pb2 import (BytesList, Example, Feature, FeatureList,  # noqa: E402
                                                FeatureLists, Features, FloatList, Int64List, SequenceExample)
# --- MonitoredSession, its hooks and helpers (graphlab/train/monitored_session.py, basic_session_run_hooks.py)
from graphlab.train.basic_session_run_hooks import (CheckpointSaverHook, CheckpointSaverListener,  # noqa: E402
                                                    FeedFnHook, FinalOpsHook, GlobalStepWaiterHook,
                                                    LoggingTensorHook, NanLossDuringTrainingError, NanTensorHook,
                                                    SecondOrStepTimer, StepCounterHook, StopAtStepHook,
                                                    SummarySaverHook)
from graphlab.train.monitored_session import (ChiefSessionCreator, MonitoredSession,  # noqa: E402
                                              MonitoredTrainingSession, Scaffold, SessionCreator, SessionManager,
                                              SingularMonitoredSession, WorkerSessionCreator, basic_train_loop)
from graphlab.train.session_run_hook import (SessionRunArgs, SessionRunContext, SessionRunHook,  # noqa: E402
                                             SessionRunValues)
from graphlab.train.learning_rate import piecewise_constant as piecewise_constant_decay  # noqa: E402
from graphlab.formats.protos.saver_pb2 import SaverDef  # noqa: E402
from graphlab.train.proximal import (AdagradDAOptimizer, FtrlOptimizer, ProximalAdagradOptimizer,  # noqa: E402
                                     ProximalGradientDescentOptimizer)
from graphlab.train.checkpoint_management import (checkpoints_iterator, generate_checkpoint_state_proto,  # noqa: E402
                                                  get_checkpoint_mtimes, remove_checkpoint)
from graphlab.train.coordinator import LooperThread  # noqa: E402
from graphlab.train.input import maybe_batch_join, maybe_shuffle_batch_join  # noqa: E402
from graphlab.train.learning_rate import noisy_linear_cosine_decay  # noqa: E402
from graphlab.train.warm_starting import VocabInfo, init_from_checkpoint, warm_start  # noqa: E402
from graphlab.train.supervisor import Supervisor  # noqa: E402
from graphlab.train.cluster_spec import ClusterSpec  # noqa: E402
from graphlab.formats.protos.cluster_pb2 import ClusterDef, JobDef  # noqa: E402
from graphlab.train.device_setter import replica_device_setter  # noqa: E402
from graphlab.train.sync_replicas_optimizer import SyncReplicasOptimizer  # noqa: E402

from graphlab import omissions as _omissions  # noqa: E402
_omissions.install(globals(), "tf.train")

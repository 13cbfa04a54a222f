"""tf.keras.callbacks in fit, compared with live tf-keras: what each writes (CSVLogger's text, ModelCheckpoint's
file names, TensorBoard's event tags and steps and the graph it stores), what each prints, when EarlyStopping
and TerminateOnNaN stop, the learning rates the schedulers set, and the hooks a callback sees in order."""
import pytest

from tests.keras import kerasref
from tests.keras.test_fit_as_tf import sanitize

SETUP = """
import os, tempfile
tmp = tempfile.mkdtemp()
x = np.random.RandomState(0).rand(12, 4).astype('float32')
y = np.random.RandomState(1).rand(12, 1).astype('float32')
m = keras.Sequential([keras.layers.Dense(2, input_shape=(4,), activation='tanh'), keras.layers.Dense(1)])
m.set_weights([np.arange(np.prod(w.shape), dtype=np.float32).reshape(w.shape) / 10 - 0.4 for w in m.get_weights()])
m.compile(optimizer=keras.optimizers.SGD(0.05), loss='mse', metrics=['mae'])
def listing(path):
    return sorted(os.listdir(path))
"""

SNIPPETS = {}
SNIPPETS["CSVLogger"] = SETUP + """
h = m.fit(x, y, batch_size=5, epochs=3, verbose=0, shuffle=False, validation_split=0.25,
          callbacks=[keras.callbacks.CSVLogger(os.path.join(tmp, 'log.csv'))])
h = m.fit(x, y, batch_size=5, epochs=2, verbose=0, shuffle=False,
          callbacks=[keras.callbacks.CSVLogger(os.path.join(tmp, 'log2.csv'), separator=';')])
rows = [line.split(',') for line in open(os.path.join(tmp, 'log.csv')).read().splitlines()]
result = {"header": rows[0], "values": [[float(v) for v in row] for row in rows[1:]],
          "text2": open(os.path.join(tmp, 'log2.csv')).read().splitlines()[0]}
"""
SNIPPETS["EarlyStopping"] = SETUP + """
stop = keras.callbacks.EarlyStopping(monitor='loss', min_delta=0.5, patience=1, verbose=1)
h = m.fit(x, y, batch_size=6, epochs=10, verbose=0, callbacks=[stop], shuffle=False)
best = keras.callbacks.EarlyStopping(monitor='val_mae', patience=0, restore_best_weights=True, mode='min')
h2 = m.fit(x, y, batch_size=6, epochs=4, verbose=0, validation_data=(x[:4], y[:4] + 5 * np.arange(4)[:, None]),
           callbacks=[best], shuffle=False)
result = {"epochs": h.epoch, "stopped": stop.stopped_epoch, "wait": stop.wait, "epochs2": h2.epoch,
          "best_epoch": best.best_epoch, "weights": [floats(w) for w in m.get_weights()]}
"""
SNIPPETS["ModelCheckpoint"] = SETUP + """
ck = keras.callbacks.ModelCheckpoint(os.path.join(tmp, 'w-{epoch:02d}-{loss:.3f}'), save_weights_only=True,
                                     verbose=1)
best = keras.callbacks.ModelCheckpoint(os.path.join(tmp, 'best', 'w'), monitor='val_loss', save_best_only=True,
                                       save_weights_only=True, verbose=1)
h = m.fit(x, y, batch_size=6, epochs=3, verbose=0, shuffle=False, validation_split=0.5, callbacks=[ck, best])
result = {"files": listing(tmp), "best": listing(os.path.join(tmp, 'best')), "best_value": float(best.best)}
"""
SNIPPETS["TensorBoard"] = SETUP + """
tb = keras.callbacks.TensorBoard(log_dir=os.path.join(tmp, 'logs'), profile_batch=0)  # no profiler plugins/
h = m.fit(x, y, batch_size=6, epochs=2, verbose=0, shuffle=False, validation_split=0.5, callbacks=[tb])
files = listing(os.path.join(tmp, 'logs'))
events = []
graph_ops = None
for e in tf.train.summary_iterator(os.path.join(tmp, 'logs', files[0])):
    if e.HasField('graph_def'):
        g = tf.GraphDef()
        g.ParseFromString(e.graph_def)
        graph_ops = sorted(n.name for n in g.node)
    for v in e.summary.value:
        events.append([int(e.step), v.tag, float(v.simple_value)])
result = {"files": [f.split(".")[0] + "." + f.split(".")[1] if f.startswith("events") else f for f in files], "events": events, "graph_ops": graph_ops}
"""
SNIPPETS["schedulers, TerminateOnNaN, LambdaCallback"] = SETUP + """
seen = []
lam = keras.callbacks.LambdaCallback(on_epoch_begin=lambda e, logs: seen.append(['begin', e]),
                                     on_epoch_end=lambda e, logs: seen.append(['end', e, sorted(logs)]),
                                     on_train_end=lambda logs: seen.append(['train_end']))
sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5, verbose=1)
plateau = keras.callbacks.ReduceLROnPlateau(monitor='loss', factor=0.5, patience=0, min_delta=10, verbose=1)
h = m.fit(x, y, batch_size=6, epochs=3, verbose=0, callbacks=[lam, sched, plateau], shuffle=False)
lrs = h.history['lr']
m.compile(optimizer=keras.optimizers.SGD(1e30), loss='mse')
h2 = m.fit(x * 1e20, y, batch_size=3, epochs=3, verbose=0, callbacks=[keras.callbacks.TerminateOnNaN()],
           shuffle=False)
result = {"seen": seen, "lr": floats(lrs), "keys": sorted(h.history), "nan_epochs": h2.epoch,
          "nan_history_len": len(h2.history['loss'])}
"""
SNIPPETS["custom Callback hooks"] = SETUP + """
calls = []
class Recorder(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        calls.append(['train_begin', sorted(self.params)])
    def on_epoch_begin(self, epoch, logs=None):
        calls.append(['epoch_begin', epoch])
    def on_train_batch_begin(self, batch, logs=None):
        calls.append(['batch_begin', batch, sorted(logs)])
    def on_train_batch_end(self, batch, logs=None):
        calls.append(['batch_end', batch, sorted(logs), logs['size']])
    def on_test_begin(self, logs=None):
        calls.append(['test_begin'])
    def on_test_end(self, logs=None):
        calls.append(['test_end'])
    def on_epoch_end(self, epoch, logs=None):
        calls.append(['epoch_end', epoch, sorted(logs), type(logs['loss']).__name__])
    def on_train_end(self, logs=None):
        calls.append(['train_end', self.model is not None])
h = m.fit(x, y, batch_size=5, epochs=2, verbose=0, validation_split=0.25, callbacks=[Recorder()], shuffle=False)
result = {"calls": calls, "params": h.params}
"""


@pytest.fixture(scope="module")
def theirs():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_callbacks_as_tf(key, theirs):
    ours = kerasref.run_ours(SNIPPETS[key])
    kerasref.assert_same(ours["result"], theirs[key]["result"], rtol=2e-5, atol=1e-6)
    assert sanitize(ours["stdout"]).replace(_tmp(ours), "TMP") == \
        sanitize(theirs[key]["stdout"]).replace(_tmp(theirs[key]), "TMP")


def _tmp(run):
    """The temporary directory a snippet printed (each side makes its own)."""
    import re
    found = re.search(r"/tmp/tmp[\w-]+", run["stdout"])
    return found.group(0) if found else "\0"

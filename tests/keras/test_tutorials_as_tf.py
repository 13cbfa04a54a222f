"""TF1-era Keras tutorial programs (TensorFlow's "basic classification" on Fashion-MNIST and "text
classification" on IMDB reviews, the forms TF 1.13-1.15 taught), on small generated data of the same shapes,
run here and in live tf-keras: what they print (timings masked), the History, the evaluation and the
predictions. Dropout's masks come from the graph seed, so the seeded runs agree."""
import pytest

from tests.keras import kerasref
from tests.keras.test_fit_as_tf import sanitize

SNIPPETS = {}
SNIPPETS["basic classification"] = """
tf.set_random_seed(0)
np.random.seed(0)
rng = np.random.RandomState(0)
train_images = rng.randint(0, 256, size=(60, 28, 28)).astype('uint8')
train_labels = rng.randint(0, 10, size=(60,))
test_images = rng.randint(0, 256, size=(20, 28, 28)).astype('uint8')
test_labels = rng.randint(0, 10, size=(20,))
class_names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag',
               'Ankle boot']
train_images = train_images / 255.0
test_images = test_images / 255.0
model = keras.Sequential([
    keras.layers.Flatten(input_shape=(28, 28)),
    keras.layers.Dense(16, activation=tf.nn.relu),
    keras.layers.Dense(10, activation=tf.nn.softmax)
])
model.set_weights([np.sin(np.arange(np.prod(w.shape), dtype=np.float32)).reshape(w.shape) * 0.1
                   for w in model.get_weights()])
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
h = model.fit(train_images, train_labels, epochs=3)
test_loss, test_acc = model.evaluate(test_images, test_labels)
print('Test accuracy:', round(float(test_acc), 4))
predictions = model.predict(test_images)
print(class_names[int(np.argmax(predictions[0]))], int(test_labels[0]))
result = {"history": h.history, "test": [float(test_loss), float(test_acc)], "predictions": floats(predictions[:3])}
"""
SNIPPETS["text classification"] = """
tf.set_random_seed(0)
np.random.seed(0)
rng = np.random.RandomState(1)
vocab_size = 100
train_data = rng.randint(1, vocab_size, size=(40, 16))
train_labels = rng.randint(0, 2, size=(40,))
model = keras.Sequential()
model.add(keras.layers.Embedding(vocab_size, 8))
model.add(keras.layers.GlobalAveragePooling1D())
model.add(keras.layers.Dense(8, activation=tf.nn.relu))
model.add(keras.layers.Dense(1, activation=tf.nn.sigmoid))
model.build((None, 16))
model.set_weights([np.cos(np.arange(np.prod(w.shape), dtype=np.float32)).reshape(w.shape) * 0.2
                   for w in model.get_weights()])
model.compile(optimizer=tf.train.AdamOptimizer(), loss='binary_crossentropy', metrics=['acc'])
x_val, partial_x_train = train_data[:10], train_data[10:]
y_val, partial_y_train = train_labels[:10], train_labels[10:]
history = model.fit(partial_x_train, partial_y_train, epochs=4, batch_size=8, validation_data=(x_val, y_val),
                    verbose=1)
results = model.evaluate(train_data, train_labels)
print(floats(results))
result = {"history": history.history, "results": floats(results)}
"""

SNIPPETS["text classification, Keras's adam"] = SNIPPETS["text classification"].replace(
    "optimizer=tf.train.AdamOptimizer()", "optimizer='adam'")


@pytest.fixture(scope="module")
def theirs():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_tutorial_as_tf(key, theirs):
    ours = kerasref.run_ours(SNIPPETS[key])
    kerasref.assert_same(ours["result"], theirs[key]["result"], rtol=1e-4, atol=1e-5)
    assert sanitize(ours["stdout"]) == sanitize(theirs[key]["stdout"])

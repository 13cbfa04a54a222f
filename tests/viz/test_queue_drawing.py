"""The renderer draws an input pipeline's queues in their own style, with the runner threads that fill them."""
import numpy as np

import graphlab as tf
from graphlab import viz


def test_queues_are_drawn_with_their_runners():
    data = tf.constant(np.arange(8, dtype=np.float32))
    x, = tf.train.slice_input_producer([data], shuffle=False)
    images = tf.train.shuffle_batch([x], batch_size=4, capacity=20, min_after_dequeue=5, num_threads=2)
    dot = viz.render(tf.get_default_graph(), fetches=[images], width=None).dot
    queue = [line for line in dot.splitlines() if '"op:shuffle_batch/random_shuffle_queue"' in line][0]
    assert 'shape="box3d"' in queue and "QueueRunner: 2 threads" in queue
    producer = [line for line in dot.splitlines() if '"op:input_producer/input_producer"' in line][0]
    assert "QueueRunner: 1 thread\\" in producer or "QueueRunner: 1 thread\"" in producer
    lone = tf.FIFOQueue(3, tf.float32)          # a queue nothing fills: no runner line
    dot = viz.render(tf.get_default_graph(), fetches=[lone.dequeue()]).dot
    line = [ln for ln in dot.splitlines() if '"op:fifo_queue"' in ln][0]
    assert "QueueRunner" not in line

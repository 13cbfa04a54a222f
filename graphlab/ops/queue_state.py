"""The session-side state of TF's queues: items, capacity, closed flag, and the Conditions (one lock) that
blocking kernels wait on (graphlab/runtime/waiting.py): dequeues on ``readers``, enqueues on ``writers``,
so an enqueue wakes a dequeue only once enough elements wait for it, and a dequeue wakes as many enqueues
as it freed places. Each kind keeps TF's order: first in first out, uniformly
random once more than ``min_after_dequeue`` items wait (RandomShuffleQueue), lowest int64 priority first
(PriorityQueue). An element is a tuple of numpy arrays, one per component.
"""
import collections
import heapq
import itertools
import threading

import numpy as np

from graphlab.ops import philox


class FIFOState:
    kind = "FIFOQueue"

    def __init__(self, resource_name, capacity):
        self.name = resource_name          # TF's resource name, "_0_fifo_queue", used in its messages
        self.capacity = capacity
        self.closed = False
        self.cancelled = False             # closed with cancel_pending_enqueues
        lock = threading.Lock()            # held (``with q.cond``) while the state is looked at or changed
        self.cond = threading.Condition(lock)
        self.readers = threading.Condition(lock)
        self.writers = threading.Condition(lock)
        self.reader_needs = []             # how many elements each waiting dequeue needs
        self.freed = 0                     # places freed since the waiting enqueues were last woken
        self.wake_after = max(1, capacity // 8)
        self.items = collections.deque()
        self.attempts = collections.deque()   # RandomShuffleQueue's waiting dequeues, served as elements come

    def __len__(self):
        return len(self.items)

    def kind_taking(self, many):
        """The queue's kind as TF's message for a dequeue (``many``: dequeue_many / dequeue_up_to) names it."""
        return self.kind

    def available(self):
        """How many elements a dequeue may take now."""
        return len(self.items)

    def has_room(self):
        return self.capacity <= 0 or len(self.items) < self.capacity

    def put(self, item):
        self.items.append(item)

    def take(self):
        return self.items.popleft()

    def added(self):
        """After elements came in (lock held): wake the waiting dequeues, if one of them can now proceed."""
        if self.attempts:
            self.serve()
        needs = self.reader_needs
        if needs and self.available() >= min(needs):
            self.readers.notify_all()

    def removed(self, count):
        """After ``count`` elements left (lock held): wake as many waiting enqueues, one place each, once
        an eighth of the capacity is free or a dequeue waits (an enqueue_many woken fills every free place:
        one wake-up per few elements instead of one each; a wait also looks again every
        waiting.SLICE_SECONDS, so nothing can stay blocked on a wake-up held back)."""
        self.freed += count
        if self.freed and (self.freed >= self.wake_after or self.reader_needs or self.attempts):
            self.writers.notify(self.freed)
            self.freed = 0

    def wake_all(self):
        """Closed or cancelled (lock held): every waiter looks again."""
        self.readers.notify_all()
        self.writers.notify_all()

    def put_back(self, items):
        """Elements a failed dequeue had taken go back where they were: nothing is lost."""
        self.items.extendleft(reversed(items))


class RandomShuffleState(FIFOState):
    kind = "RandomShuffleQueue"

    def __init__(self, resource_name, capacity, min_after_dequeue, seed, seed2):
        super().__init__(resource_name, capacity)
        self.items = []
        self.min_after_dequeue = min_after_dequeue
        # TF's own picks: one 32-bit Philox word per dequeued element, from a generator keyed by seed with
        # seed2 in the counter's high half (fresh entropy when both are 0), so a seeded shuffle_batch fed in
        # a fixed order (one runner thread) gives TF's batches
        stream = philox.Stream(seed, seed2)
        self.words = philox.WordReader(stream.key, stream.next_counter)

    def available(self):
        if self.closed:
            return len(self.items)
        return max(0, len(self.items) - self.min_after_dequeue)

    def take(self):
        index = self.words.word() % len(self.items)
        items = self.items
        items[index], items[-1] = items[-1], items[index]
        return items.pop()

    def put_back(self, items):
        self.items.extend(items)

    def serve(self):
        """Give the waiting dequeues (oldest first, lock held) the elements they may take now, one pick at a
        time, as TF's queue does each time an element comes in: so a shuffle_batch fed by a runner thread
        picks each element among the min_after_dequeue + 1 there at that moment, as in TF, whatever the
        threads' timing. A dequeue that got all it asked for is woken."""
        served = 0
        while self.attempts:
            attempt = self.attempts[0]
            while len(attempt.taken) < attempt.n and self.available():
                attempt.taken.append(self.take())
                served += 1
            if len(attempt.taken) < attempt.n:
                break
            self.attempts.popleft()
            attempt.done = True
            self.readers.notify_all()
        if served:
            self.removed(served)


class Attempt:
    """A dequeue of ``n`` elements waiting in a RandomShuffleQueue, and what it has been given so far."""

    __slots__ = ("n", "taken", "done")

    def __init__(self, n):
        self.n, self.taken, self.done = n, [], False


class PriorityState(FIFOState):
    kind = "PriorityQueue"

    def __init__(self, resource_name, capacity):
        super().__init__(resource_name, capacity)
        self.items = []
        self._order = itertools.count()      # equal priorities leave in the order they came

    def put(self, item):
        heapq.heappush(self.items, (int(item[0]), next(self._order), item))

    def take(self):
        return heapq.heappop(self.items)[2]

    def put_back(self, items):
        for item in items:
            self.put(item)


class PaddingFIFOState(FIFOState):
    kind = "FIFOQueue"      # TF's padding queue is a FIFOQueue underneath, and its messages say so ...

    def kind_taking(self, many):
        """... except those of its own dequeue_many / dequeue_up_to."""
        return "PaddingFIFOQueue" if many else self.kind


def stack_components(items, count, pad):
    """The components of ``items`` stacked along a new dimension 0; with ``pad``, each component is first
    padded with zeros (empty strings) to the largest shape among the items, as PaddingFIFOQueue does."""
    out = []
    for i in range(count):
        parts = [item[i] for item in items]
        if pad and parts and any(p.shape != parts[0].shape for p in parts):
            shape = tuple(max(p.shape[d] for p in parts) for d in range(parts[0].ndim))
            fill = b"" if parts[0].dtype == object else 0
            padded = np.full((len(parts),) + shape, fill, dtype=parts[0].dtype)
            for k, p in enumerate(parts):
                padded[(k,) + tuple(slice(0, n) for n in p.shape)] = p
            out.append(padded)
        else:
            out.append(np.stack(parts))
    return out

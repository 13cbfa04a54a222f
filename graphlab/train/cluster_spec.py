"""``tf.train.ClusterSpec``: the addresses of a TensorFlow cluster's tasks, job by job.

graphlab runs one process, so a ClusterSpec here only describes a cluster: ``replica_device_setter`` reads the
number of parameter-server tasks from it, and the lesson hands it (``as_dict``) to a real TensorFlow cluster
started by ``graphlab cluster``. The forms TF accepts are accepted: a dict of job name to a list of addresses
or to a dict {task index: address}, a ``ClusterDef`` proto, or another ClusterSpec; errors are TF's.
"""
from graphlab.formats.protos.cluster_pb2 import ClusterDef


def _check_address(address):
    if not isinstance(address, (bytes, str)):
        raise TypeError("Task address %r must be bytes or unicode" % (address,))
    return address


class ClusterSpec:
    """Job name -> {task index: "host:port"}, kept as TF keeps it: jobs in the order given (sorted in the
    ClusterDef), tasks by index."""

    def __init__(self, cluster):
        if isinstance(cluster, dict):
            self._jobs = {}
            for job, tasks in cluster.items():
                if isinstance(job, bytes):
                    job = job.decode("utf-8")
                if not isinstance(job, str):
                    raise TypeError("Job name %r must be bytes or unicode" % (job,))
                if isinstance(tasks, (list, tuple)):
                    self._jobs[job] = {i: _check_address(a) for i, a in enumerate(tasks)}
                elif isinstance(tasks, dict):
                    self._jobs[job] = {int(i): _check_address(a) for i, a in tasks.items()}
                else:
                    raise TypeError("The tasks for job %r must be a list or a dictionary from integers to "
                                    "strings." % (job,))
        elif isinstance(cluster, ClusterDef):
            self._jobs = {j.name: dict(j.tasks) for j in cluster.job}
        elif isinstance(cluster, ClusterSpec):
            self._jobs = {job: dict(tasks) for job, tasks in cluster._jobs.items()}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            "addresses, or a `ClusterDef` protocol buffer")

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self._jobs == other._jobs

    def __ne__(self, other):
        return not self == other

    __hash__ = None   # mutable-looking and compared by value, as TF's: unhashable

    def __repr__(self):
        jobs = self.as_dict()
        return "ClusterSpec({%s})" % ", ".join("%r: %r" % (job, jobs[job]) for job in sorted(jobs))

    __str__ = __repr__

    def as_dict(self):
        """Each job's addresses: a list when its task indices are 0..n-1 (n > 0), else a dict {index: address}."""
        out = {}
        for job in self.jobs:
            tasks = self._jobs[job]
            indices = sorted(tasks)
            if indices and indices == list(range(len(indices))):
                out[job] = [tasks[i] for i in indices]
            else:
                out[job] = {i: tasks[i] for i in indices}
        return out

    def as_cluster_def(self):
        """The ``tensorflow.ClusterDef`` proto (jobs and tasks in sorted order)."""
        proto = ClusterDef()
        for job in sorted(self._jobs):
            entry = proto.job.add(name=job)
            for i in sorted(self._jobs[job]):
                entry.tasks[i] = self._jobs[job][i]
        return proto

    @property
    def jobs(self):
        return list(self._jobs)

    def _job(self, job_name):
        try:
            return self._jobs[job_name]
        except KeyError:
            raise ValueError("No such job in cluster: %r" % (job_name,)) from None

    def num_tasks(self, job_name):
        return len(self._job(job_name))

    def task_indices(self, job_name):
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._job(job_name)
        try:
            return tasks[task_index]
        except KeyError:
            raise ValueError("No task with index %r in job %r" % (task_index, job_name)) from None

    def job_tasks(self, job_name):
        """A list indexed by task: the address, or None where the cluster has no such task."""
        tasks = self._job(job_name)
        out = [None] * (max(tasks) + 1 if tasks else 0)
        for i, address in tasks.items():
            out[i] = address
        return out

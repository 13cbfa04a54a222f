"""Run a TensorFlow-1 training script on a real TensorFlow cluster started on this machine, for a lesson.

    graphlab cluster --ps 1 --workers 2 worker.py [ARGS ...]

graphlab runs one process and implements no cluster: this command starts TensorFlow's own. Each ps task is a
process of TensorFlow's Python serving ``tf.distribute.Server`` until the workers are done; each worker task
is a process running your script. Every task finds the cluster and its own place in it in the environment
variable TF_CONFIG, as TensorFlow's tools set it: {"cluster": {"ps": [...], "worker": [...]}, "task": {"type":
"worker", "index": 0}}. Addresses are 127.0.0.1 on free ports. TensorFlow's gRPC servers listen on every
interface, so where the machine allows it (``unshare``) the tasks run in a network namespace of their own whose
only interface is loopback: nothing outside this machine can reach them.

When the workers have finished (or failed, or the --timeout passed) every task is stopped, and the command
checks that each port is free again. Each task's output goes to LOGDIR/JOB-INDEX.log; a failing task's last
lines are printed. Exit status 0 when every worker exited 0.

The worker script is an ordinary TF1 between-graph replication program: ``tf.distribute.Server`` for its task,
variables placed with ``tf.train.replica_device_setter``, ``tf.train.MonitoredTrainingSession(master=
server.target, is_chief=(index == 0))``. ``graphlab cluster --example-worker`` prints the path of one that
trains a model exported from graphlab (meta graph + checkpoint) and leaves the chief's checkpoint for graphlab
to restore; with ``--built-sync`` it runs instead the whole SyncReplicasOptimizer training graph graphlab built
for each worker (one meta graph per worker, its sync ops marked by ``mark_sync_replicas`` below). Lesson 11
walks through both.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from graphlab.cli.common import CLIError

EXAMPLE_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_cluster_worker.py")
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What a ps task runs (under TensorFlow's Python; graphlab never imports TensorFlow).
PS_PROGRAM = """
import json, os
import tensorflow.compat.v1 as tf
config = json.loads(os.environ["TF_CONFIG"])
task = config["task"]
server = tf.distribute.Server(tf.train.ClusterSpec(config["cluster"]), job_name=task["type"],
                              task_index=task["index"])
print("%s %d serving at %s" % (task["type"], task["index"], server.target), flush=True)
server.join()
"""


def mark_sync_replicas(sync_optimizer, train_op, num_tokens=0, graph=None):
    """Mark the parts of a graphlab SyncReplicasOptimizer in collections of the graph (saved with its meta
    graph), so the example worker's ``--built-sync`` finds them by name: the train op, the chief's and the
    other workers' local init, the readiness check, the initial tokens (none by default: every worker waits
    for the first update) and the chief's queue runner (its queue, enqueue, close and cancel ops)."""
    from graphlab.framework.graph import get_default_graph   # here: the cluster runner itself needs no engine
    graph = graph or get_default_graph()
    runner = sync_optimizer.get_chief_queue_runner()
    with graph.as_default():
        init_tokens = sync_optimizer.get_init_tokens_op(num_tokens)
    parts = {"sync_replicas_train_op": [train_op],
             "sync_replicas_chief_init_op": [sync_optimizer.chief_init_op],
             "sync_replicas_local_step_init_op": [sync_optimizer.local_step_init_op],
             "sync_replicas_ready_for_local_init_op": [sync_optimizer.ready_for_local_init_op],
             "sync_replicas_init_tokens_op": [init_tokens],
             "sync_replicas_chief_queue_runner": [runner.queue.queue_ref.op, runner.enqueue_ops[0],
                                                  runner.close_op, runner.cancel_op]}
    for key, items in parts.items():
        for item in items:
            graph.add_to_collection(key, item)
    return parts


def add_arguments(p):
    p.add_argument("script", nargs="?", help="the worker program (run by every worker task with TensorFlow's "
                                             "Python)")
    p.add_argument("script_args", nargs="*", metavar="ARG", help="arguments for the worker program (after --)")
    p.add_argument("--ps", type=int, default=1, help="parameter-server tasks (default 1)")
    p.add_argument("--workers", type=int, default=2, help="worker tasks (default 2)")
    p.add_argument("--tf-python", help="a Python that imports tensorflow (default: $GRAPHLAB_TF_PYTHON, the "
                                       "checkout's .tfvenv, else this Python)")
    p.add_argument("--timeout", type=float, default=300, help="seconds before every task is stopped (300)")
    p.add_argument("--logdir", help="where each task's output goes (default: a new temporary directory)")
    p.add_argument("--no-isolate", action="store_true",
                   help="run the tasks in this machine's network namespace (their servers then listen on "
                        "every interface, as TensorFlow's do)")
    p.add_argument("--example-worker", action="store_true", help="print the path of the example worker program")


def run(args):
    if args.example_worker:
        print(EXAMPLE_WORKER)
        return 0
    if not args.script:
        raise CLIError("name the worker program to run: graphlab cluster [OPTIONS] worker.py [-- ARGS]")
    result = run_cluster(args.script, args.script_args, ps=args.ps, workers=args.workers,
                         tf_python=args.tf_python, timeout=args.timeout, logdir=args.logdir,
                         isolate=not args.no_isolate)
    return 0 if result["ok"] else 1


def find_tf_python(explicit=None):
    """The Python that runs the tasks: explicit, $GRAPHLAB_TF_PYTHON, the checkout's .tfvenv, else this one."""
    for exe in (explicit, os.environ.get("GRAPHLAB_TF_PYTHON"), os.path.join(_ROOT, ".tfvenv", "bin", "python")):
        if exe and os.path.exists(exe):
            return exe
    if explicit:
        raise CLIError("%s: no such Python (--tf-python names a Python that imports tensorflow)" % explicit)
    return sys.executable


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_free(port):
    """Nothing listens on 127.0.0.1:port: a server could bind it now (SO_REUSEADDR, as servers do)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def _can_isolate():
    try:
        return subprocess.run(_unshare_prefix() + ["true"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _unshare_prefix():
    return ["unshare", "--net"] + (["--map-root-user"] if os.getuid() != 0 else [])


def run_cluster(script, script_args=(), ps=1, workers=2, tf_python=None, timeout=300, logdir=None, isolate=True,
                out=None):
    """Start the cluster, run ``script`` on every worker, stop everything; print a summary to ``out`` (stdout)
    and return {"ok", "exit_codes", "ports", "ports_free", "logdir", "isolated"}."""
    out = out or sys.stdout
    if ps < 1 or workers < 1:
        raise CLIError("a cluster needs at least one ps task and one worker (--ps %d --workers %d)" % (ps, workers))
    if not os.path.exists(script):
        raise CLIError("%s: no such worker program" % script)
    spec = {"script": os.path.abspath(script), "args": [str(a) for a in script_args], "ps": ps, "workers": workers,
            "python": find_tf_python(tf_python), "timeout": timeout,
            "logdir": os.path.abspath(logdir or tempfile.mkdtemp(prefix="graphlab-cluster-")), "cwd": os.getcwd()}
    os.makedirs(spec["logdir"], exist_ok=True)
    isolated = bool(isolate) and _can_isolate()
    if isolated:
        result = _run_isolated(spec)
    else:
        result = _run_tasks(spec)
    # seen from here too: whatever namespace the tasks had, none of their ports is held any longer
    result["ports_free"] = result["ports_free"] and all(port_is_free(p) for p in result["ports"])
    result["isolated"] = isolated
    _report(result, spec, out)
    return result


def _run_isolated(spec):
    """Run _run_tasks in a fresh network namespace (only loopback), via this module's __main__."""
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.Popen(_unshare_prefix() + [sys.executable, "-m", "graphlab.cli.cluster", json.dumps(spec)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=spec["timeout"] + 60)
    except subprocess.TimeoutExpired:
        raise CLIError("the cluster runner did not finish within %gs; every task was stopped (logs in %s)"
                       % (spec["timeout"] + 60, spec["logdir"])) from None
    finally:
        if proc.poll() is None:
            _kill_group(proc)
    lines = stdout.decode("utf-8", "replace").strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise CLIError("the isolated cluster runner failed (exit %s): %s"
                       % (proc.returncode, stderr.decode("utf-8", "replace")[-2000:]))
    return json.loads(lines[-1])


def _loopback_up():
    """Bring up ``lo`` in a new network namespace (it starts down): SIOCGIFFLAGS, then SIOCSIFFLAGS | IFF_UP."""
    import fcntl
    import struct
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, request)[:18])[1]
        fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 0x1))


def _task_env(cluster, job, index):
    env = dict(os.environ)
    env["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": job, "index": index}})
    for key, value in (("TF_CPP_MIN_LOG_LEVEL", "3"), ("TF_ENABLE_ONEDNN_OPTS", "0"), ("CUDA_VISIBLE_DEVICES", ""),
                       ("PYTHONUNBUFFERED", "1")):
        env.setdefault(key, value)
    env.pop("PYTHONPATH", None)   # the tasks are TensorFlow programs: graphlab stays out of them
    return env


def _kill_group(proc, grace=10):
    """SIGTERM the task's process group, SIGKILL it if it has not gone after ``grace`` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 30)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _run_tasks(spec):
    """Start ps and worker processes, wait for the workers, stop everything, check the ports."""
    ports = [free_port() for _ in range(spec["ps"] + spec["workers"])]
    while len(set(ports)) < len(ports):
        ports = [free_port() for _ in range(spec["ps"] + spec["workers"])]
    cluster = {"ps": ["127.0.0.1:%d" % p for p in ports[:spec["ps"]]],
               "worker": ["127.0.0.1:%d" % p for p in ports[spec["ps"]:]]}
    tasks, logs = [], []
    exit_codes, timed_out = {}, False
    try:
        for job, count in (("ps", spec["ps"]), ("worker", spec["workers"])):
            for i in range(count):
                log = open(os.path.join(spec["logdir"], "%s-%d.log" % (job, i)), "wb")
                logs.append(log)
                argv = ([spec["python"], "-c", PS_PROGRAM] if job == "ps"
                        else [spec["python"], spec["script"]] + spec["args"])
                proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=_task_env(cluster, job, i),
                                        cwd=spec["cwd"], start_new_session=True)
                tasks.append((job, i, proc))
        deadline = time.time() + spec["timeout"]
        workers = [(job, i, p) for job, i, p in tasks if job == "worker"]
        while True:
            for job, i, p in workers:
                if p.poll() is not None:
                    exit_codes["%s %d" % (job, i)] = p.returncode
            failed = any(code != 0 for code in exit_codes.values())
            if len(exit_codes) == len(workers) or failed:
                break
            if time.time() > deadline:
                timed_out = True
                break
            time.sleep(0.2)
    finally:
        for job, i, p in reversed(tasks):
            if p.poll() is None:
                _kill_group(p)
        for log in logs:
            log.close()
    # a listening socket is closed with its process; give the kernel a moment to release it
    free = False
    for _ in range(50):
        free = all(port_is_free(p) for p in ports)
        if free:
            break
        time.sleep(0.1)
    ok = not timed_out and len(exit_codes) == spec["workers"] and all(c == 0 for c in exit_codes.values())
    return {"ok": ok, "exit_codes": exit_codes, "timed_out": timed_out, "ports": ports, "ports_free": free,
            "cluster": cluster, "logdir": spec["logdir"], "pids": [p.pid for _, _, p in tasks],
            "stopped": all(p.poll() is not None for _, _, p in tasks)}


def _tail(path, lines=15):
    try:
        with open(path, "rb") as f:
            return "\n".join(f.read().decode("utf-8", "replace").strip().splitlines()[-lines:])
    except OSError:
        return ""


def _report(result, spec, out):
    """A summary without ports, pids or times, so a lesson's output stays the same run after run."""
    print("cluster: %d ps and %d worker task(s) of TensorFlow on 127.0.0.1%s" % (
        spec["ps"], spec["workers"], " (own network namespace: loopback only)" if result["isolated"] else ""),
        file=out)
    for i in range(spec["workers"]):
        code = result["exit_codes"].get("worker %d" % i)
        state = ("still running at the timeout" if code is None and result["timed_out"]
                 else "stopped when another worker failed" if code is None else "exit %d" % code)
        print("worker %d%s: %s" % (i, " (chief)" if i == 0 else "", state), file=out)
        if code not in (0, None):
            print(_tail(os.path.join(spec["logdir"], "worker-%d.log" % i)), file=out)
    print("stopped: every task%s; %s" % (
        "" if result["stopped"] else " (NOT all: see the logs)",
        "every port is free again" if result["ports_free"] else "some port is STILL in use"), file=out)
    if result["timed_out"]:
        print("timed out after %gs: raise --timeout, or look at the logs in %s" % (spec["timeout"], spec["logdir"]),
              file=out)


if __name__ == "__main__":
    # inside the network namespace that _run_isolated made: loopback up, run the tasks, answer in JSON
    _loopback_up()
    print(json.dumps(_run_tasks(json.loads(sys.argv[1]))))

"""Keep freed memory for the next step instead of handing it back to the system after every step.

A training step's kernels allocate their results with malloc (through numpy) and free them when the step is
done with them. A recurrent model keeps every time step's activations for its backward pass, ~18 MB for
bench_rnn's 2-layer LSTM, and frees them all at the end of the step. glibc's malloc then finds that much free
memory on top of its heap and returns it to the kernel (it trims the heap past ``M_TRIM_THRESHOLD``), and
serves arrays larger than ``M_MMAP_THRESHOLD`` with a fresh mmap each time. Either way the next step touches
fresh pages: ~4500 page faults and ~10 ms of kernel time in a 60 ms step. TensorFlow's allocators keep their
memory between steps; this gives graphlab's runs the same.

glibc raises both thresholds by itself after freeing a large mmapped block (mmap threshold = its size, trim
threshold = twice that), up to 32 MB and 64 MB. ``keep_freed_memory`` sets them to those ceilings up front,
once, when a Session first runs a plan: blocks up to 32 MB come from the heap, and up to 64 MB of free heap
is kept for reuse. Values and errors are untouched; only where the memory comes from changes. Other C
libraries (musl, macOS) are left as they are.
"""
import ctypes
import platform
import threading

MMAP_THRESHOLD_BYTES = 32 << 20     # glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit systems
TRIM_THRESHOLD_BYTES = 2 * MMAP_THRESHOLD_BYTES   # glibc's own rule: twice the mmap threshold
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3   # mallopt's parameter numbers (malloc.h)

_result = None      # None until tried; then whether the thresholds were set
_lock = threading.Lock()


def keep_freed_memory():
    """Set glibc malloc's trim and mmap thresholds (tried once per process); True when they are set."""
    global _result
    if _result is None:
        with _lock:
            if _result is None:
                _result = _set_thresholds()
    return _result


def _set_thresholds():
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        # the process's own symbols (dlopen(NULL)), where glibc already is: ctypes.util.find_library would run
        # /sbin/ldconfig -p in a subprocess, and running a graph starts no process
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and \
        bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))

"""TensorFlow's error family (``tf.errors``), at the bottom of the engine so that the file formats raise the
same ``tf.errors.DataLossError`` a TF user catches. Each error carries the op it came from and the user's line
that created that op, so a message can point at the code to fix rather than at the engine.

What every loader (checkpoint readers and restore, import_graph_def and .pb/.pbtxt files, import_meta_graph,
the SavedModel loader, the `checkpoint` state file, summary_iterator) raises for a file it cannot use, and
nothing else (tests/formats/test_fuzz_loaders.py feeds them thousands of mutated files):

* ``tf.errors.DataLossError``: the file is truncated or corrupt (a checksum, the framing, the proto
  encoding); the message names the file.
* ``tf.errors.NotFoundError``: a file or a tensor the reader needs is missing.
* ``tf.errors.InvalidArgumentError`` / ``UnimplementedError``: a well-formed file asks for something that
  cannot be done (a dtype mismatch on restore) or that graphlab does not support.
* ``ValueError``: a graph that does not fit together, where TensorFlow's import_graph_def and
  import_meta_graph raise ValueError too; the message names the node.
* ``RuntimeError`` only from the SavedModel loader when no meta graph has the requested tags, as TF's.
"""

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED = (
    10, 11, 12, 13, 14, 15, 16)


class OpError(Exception):
    """Base of every error raised while running a graph (TF's ``tf.errors.OpError``)."""

    def __init__(self, node_def, op, message, error_code=UNKNOWN):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    @property
    def error_code(self):
        return self._error_code

    def __str__(self):
        """The message, then where the op was defined, as TF's OpError: "Original stack trace for 'add':"
        and the frames (graphlab keeps one per op, the user's line)."""
        if self._op is None:
            return self._message
        where = getattr(self._op, "source_line", None)
        frames = '  File "%s", line %d, in %s\n' % (where.filename, where.lineno, where.function) if where else ""
        return "%s\n\nOriginal stack trace for %r:\n%s" % (self._message, self._op.name, frames)


def _make(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code)
    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc, "_code": code})


CancelledError = _make("CancelledError", CANCELLED, "The operation was cancelled.")
UnknownError = _make("UnknownError", UNKNOWN, "An error of no other kind.")
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT,
                             "An op got a bad argument: a wrong shape or value, or a missing feed.")
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline passed.")
NotFoundError = _make("NotFoundError", NOT_FOUND, "A file, key or entity was not found.")
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED, "Not allowed.")
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED, "Out of some resource.")
FailedPreconditionError = _make("FailedPreconditionError", FAILED_PRECONDITION,
                                "The system is not in a state to run the op, e.g. an uninitialized variable.")
AbortedError = _make("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE, "Past the end, e.g. a closed, empty queue.")
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED, "The operation is not implemented here.")
InternalError = _make("InternalError", INTERNAL, "An internal invariant broke.")
UnavailableError = _make("UnavailableError", UNAVAILABLE, "The runtime is unavailable.")
DataLossError = _make("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption, e.g. a bad file.")
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED, "Not authenticated.")


_CLASS_OF_CODE = {cls._code: cls for cls in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError, AlreadyExistsError,
    PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError, AbortedError, OutOfRangeError,
    UnimplementedError, InternalError, UnavailableError, DataLossError, UnauthenticatedError)}


def exception_type_from_error_code(error_code):
    """``tf.errors.exception_type_from_error_code``: the OpError class of a code (KeyError for others)."""
    return _CLASS_OF_CODE[error_code]


def error_code_from_exception_type(cls):
    """``tf.errors.error_code_from_exception_type``: the code of an OpError class; TF warns and answers
    UNKNOWN for any other class."""
    code = getattr(cls, "_code", None)
    if code is None or _CLASS_OF_CODE.get(code) is not cls:
        import warnings
        warnings.warn("Unknown class exception")
        return UNKNOWN
    return code


class InaccessibleTensorError(ValueError):
    """A tensor or op that cannot be used where it was asked for, e.g. fetching an op from inside a while
    loop or a cond branch (TF's ``tf.errors.InaccessibleTensorError``, a ValueError)."""


def data_loss(path, what):
    """DataLossError whose message names the file, so the user knows which file to replace."""
    return DataLossError(None, None, "Unable to read file %s: %s. The file is truncated or "
                         "corrupt; write it again or restore an older checkpoint." % (path, what))


# tf.errors' names (graphlab/errors.py); data_loss is the loaders' own helper
__all__ = ["ABORTED", "ALREADY_EXISTS", "AbortedError", "AlreadyExistsError", "CANCELLED", "CancelledError",
           "DATA_LOSS", "DEADLINE_EXCEEDED", "DataLossError", "DeadlineExceededError", "FAILED_PRECONDITION",
           "FailedPreconditionError", "INTERNAL", "INVALID_ARGUMENT", "InaccessibleTensorError",
           "InternalError", "InvalidArgumentError", "NOT_FOUND", "NotFoundError", "OK", "OUT_OF_RANGE",
           "OpError", "OutOfRangeError", "PERMISSION_DENIED", "PermissionDeniedError", "RESOURCE_EXHAUSTED",
           "ResourceExhaustedError", "UNAUTHENTICATED", "UNAVAILABLE", "UNIMPLEMENTED", "UNKNOWN",
           "UnauthenticatedError", "UnavailableError", "UnimplementedError", "UnknownError",
           "error_code_from_exception_type", "exception_type_from_error_code"]

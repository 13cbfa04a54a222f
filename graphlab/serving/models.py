"""The served model: numbered version directories under a base path, loaded into graphlab sessions.

As TF Serving's default policy: the highest numeric version is served; a new higher version found by the
poller is loaded and, once loaded, replaces the old one (which is unloaded, state END); a version that fails
to load (corrupt files, a PyFunc in its graph) is reported with its error and the previous version keeps
serving. Only one thread runs a session at a time (graphlab sessions are not shared between threads).

A request holds the Version it started with until it ends (Version.acquire/release, as TF Serving's
ServableHandle): a version replaced while requests still run on it is retired, and its session closes when
the last of those requests releases it, never under a running prediction."""
import os
import threading

from google.protobuf import json_format

from graphlab.serving import json_tensor
from graphlab.serving.status import ServingError, from_exception, invalid, not_found

DEFAULT_SIGNATURE = "serving_default"
PY_FUNC_OPS = ("PyFunc", "PyFuncStateless", "EagerPyFunc")


def _json_dict(message):
    """A proto as TF Serving prints it: field names as in the .proto, fields with default values included."""
    try:
        return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                         always_print_fields_with_no_presence=True)
    except TypeError:  # protobuf < 5.26
        return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                         including_default_value_fields=True)


def py_func_nodes(meta_graph_def):
    """Names and types of the nodes that call back into Python (in the graph or its function library)."""
    found = [(nd.name, nd.op) for nd in meta_graph_def.graph_def.node if nd.op in PY_FUNC_OPS]
    for f in meta_graph_def.graph_def.library.function:
        found += [("%s/%s" % (f.signature.name, nd.name), nd.op) for nd in f.node_def if nd.op in PY_FUNC_OPS]
    return found


class Version:
    """One loaded SavedModel version: its session, meta graph and signatures."""

    def __init__(self, number, path, tags=("serve",)):
        import graphlab as tf
        from graphlab.saved_model import loader
        self.number = number
        self.path = path
        sm = loader.read_saved_model(path)
        mgd = next((m for m in sm.meta_graphs if set(m.meta_info_def.tags) == set(tags)), None)
        if mgd is None:
            raise ServingError("NOT_FOUND", "Could not find meta graph def matching supplied tags: { %s }. To "
                               "inspect available tag-sets in the SavedModel, please use the SavedModel CLI: "
                               "`saved_model_cli`" % " ".join(tags))
        bad = py_func_nodes(mgd)
        if bad:
            raise ServingError(
                "FAILED_PRECONDITION",
                "SavedModel %s cannot be served: its graph calls Python through %s (%s). A py_func's Python "
                "function lives only in the process that built the graph; the SavedModel stores just a token "
                "naming it, so no server can run it. Rewrite that part with graph ops, or compute it in the "
                "client before the request." % (path, ", ".join("%s op '%s'" % (t, n) for n, t in bad[:3]),
                                                "%d node%s" % (len(bad), "" if len(bad) == 1 else "s")))
        self.graph = tf.Graph()
        self.session = tf.Session(graph=self.graph)
        self.meta_graph_def = loader.load(self.session, list(tags), path)
        self.lock = threading.Lock()        # one session.run at a time
        self._users_lock = threading.Lock()  # guards the three fields below
        self._users = 0                     # requests holding this version
        self._retired = False               # replaced: close when the last user releases it
        self.closed = False
        self.on_close = None                # called once, after the session has closed

    def acquire(self):
        """Hold this version for one request (False if it has already been retired)."""
        with self._users_lock:
            if self._retired:
                return False
            self._users += 1
            return True

    def release(self):
        """End one request's hold; the last release of a retired version closes it."""
        with self._users_lock:
            self._users -= 1
            last = self._retired and self._users == 0
        if last:
            self._close()

    def retire(self):
        """No new requests get this version; it closes now if idle, else when its last request ends."""
        with self._users_lock:
            self._retired = True
            idle = self._users == 0
        if idle:
            self._close()

    def signature(self, name):
        name = name or DEFAULT_SIGNATURE
        sig = self.meta_graph_def.signature_def.get(name)
        if sig is None or name not in self.meta_graph_def.signature_def:
            raise invalid('Serving signature name: "', name, '" not found in signature def')
        return sig

    def predict(self, signature_name, form, raw):
        from graphlab.formats import dtypes_map
        sig = self.signature(signature_name)
        dtypes = {k: dtypes_map.enum_name(v.dtype) for k, v in sig.inputs.items()}
        if not dtypes:
            raise invalid("Failed to get input map for signature: ", signature_name or "DEFAULT")
        arrays = (json_tensor.row_inputs(raw, dtypes) if form == "row"
                  else json_tensor.columnar_inputs(raw, dtypes))
        feed = {sig.inputs[k].name: v for k, v in arrays.items()}
        keys = sorted(sig.outputs)
        try:
            with self.lock:
                values = self.session.run([sig.outputs[k].name for k in keys], feed_dict=feed)
        except Exception as e:
            raise from_exception(e) from None
        return json_tensor.predict_response(dict(zip(keys, values)), form)

    def metadata(self, model_name):
        sigs = {k: _json_dict(v) for k, v in self.meta_graph_def.signature_def.items()}
        return {"model_spec": {"name": model_name, "signature_name": "", "version": str(self.number)},
                "metadata": {"signature_def": {"signature_def": sigs}}}

    def _close(self):
        with self.lock:
            if self.closed:
                return
            self.session.close()
            self.closed = True
        if self.on_close is not None:
            self.on_close(self)

    def close(self):
        """Close now (server shutdown): waits for a running prediction, never interrupts one."""
        self._close()


class ServedModel:
    """All versions of one model under base_path, as TF Serving manages them."""

    def __init__(self, name, base_path, log=print):
        self.name = name
        self.base_path = os.path.abspath(base_path)
        self.log = log
        self.current = None                 # the Version being served
        self.states = {}                    # version -> (state, error_code, error_message)
        self._failed = {}                   # version -> the stamp of the files that failed to load
        self._lock = threading.Lock()

    def numeric_versions(self):
        try:
            names = os.listdir(self.base_path)
        except OSError:
            return []
        return sorted(int(n) for n in names if n.isdigit() and os.path.isdir(os.path.join(self.base_path, n)))

    def _stamp(self, path):
        try:
            return tuple(sorted((e.name, e.stat().st_mtime_ns, e.stat().st_size) for e in os.scandir(path)))
        except OSError:
            return None

    def poll(self):
        """Load the highest version if it is newer than the served one (and did not fail with these files)."""
        versions = self.numeric_versions()
        if not versions:
            if self.current is None:
                self.log("No versions of servable %s found under base path %s" % (self.name, self.base_path))
            return
        newest = versions[-1]
        if self.current is not None and newest <= self.current.number:
            return
        path = os.path.join(self.base_path, str(newest))
        stamp = self._stamp(path)
        if self._failed.get(newest) == stamp:
            return
        from graphlab.saved_model import loader
        if not loader.maybe_saved_model_directory(path):
            return  # still being written: saved_model.pb appears last in an atomic export
        self.states[newest] = ("LOADING", "OK", "")
        self.log("Loading servable version {name: %s version: %d}" % (self.name, newest))
        try:
            version = Version(newest, path)
        except Exception as e:  # a corrupt or unservable version: report it, keep serving the old one
            err = from_exception(e) if not isinstance(e, ServingError) else e
            if err.code == "INTERNAL" and isinstance(e, OSError):
                err = ServingError("NOT_FOUND", str(e))
            msg = getattr(e, "message", None) or str(e)
            self.states[newest] = ("END", err.code if err.code != "OK" else "UNKNOWN", msg)
            self._failed[newest] = stamp
            self.log("Loading servable version {name: %s version: %d} failed: %s" % (self.name, newest, msg))
            return
        with self._lock:
            old, self.current = self.current, version
        self.log("Successfully loaded servable version {name: %s version: %d}" % (self.name, newest))
        if old is not None:
            self.states[old.number] = ("UNLOADING", "OK", "")
            old.on_close = self._unloaded
            old.retire()  # closes now if idle, else when its last request releases it
        # last: a client that sees the new version AVAILABLE also sees the old one END
        self.states[newest] = ("AVAILABLE", "OK", "")

    def _unloaded(self, version):
        self.states[version.number] = ("END", "OK", "")
        self.log("Unloaded servable version {name: %s version: %d}" % (self.name, version.number))

    # --- requests --------------------------------------------------------------------------------------

    def version_for(self, name, version):
        """The Version a request names (None version: the served one), or TF Serving's NOT_FOUND. The caller
        holds it (acquired here, under the same lock as the swap) and must call its release() when done."""
        with self._lock:
            current = self.current
            self._check(name, version, current)
            if not current.acquire():  # cannot happen: the swap and this run under one lock
                raise not_found("Servable not found for request: Latest(", name, ")")
            return current

    def _check(self, name, version, current):
        if name != self.name or current is None:
            if version is None:
                raise not_found("Servable not found for request: Latest(", name, ")")
            raise not_found("Servable not found for request: Specific(", name, ", ", version, ")")
        if version is not None and version != current.number:
            raise not_found("Servable not found for request: Specific(", name, ", ", version, ")")

    def status(self, name, version):
        if name != self.name:
            raise not_found("Could not find any versions of model ", name)
        if version is not None:
            if version not in self.states:
                raise not_found("Could not find version ", version, " of model ", name)
            keys = [version]
        else:
            keys = sorted(self.states, reverse=True)
            if not keys:
                raise not_found("Could not find any versions of model ", name)
        return {"model_version_status": [
            {"version": str(v), "state": self.states[v][0],
             "status": {"error_code": self.states[v][1], "error_message": self.states[v][2]}} for v in keys]}

    def close(self):
        if self.current is not None:
            self.current.close()

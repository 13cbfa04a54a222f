"""``tf.DeviceSpec`` and the device strings of ``tf.device``, parsed and printed as TF does
("/cpu:0" -> "/device:CPU:0", "/job:ps/task:1", "gpu:*"), with TF's errors for unknown attributes or two
device types. graphlab computes everything on the CPU; device strings are recorded on ops (``op.device``,
the NodeDef's ``device``) so graphs and files say what TF's would, and a Session checks them as TF's placer."""

_VALID_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})


def _str_or_none(value):
    return None if value is None else str(value)


def _int_or_none(value):
    return None if value is None else int(value)


def _device_type(value):
    return value.upper() if value in ("cpu", "gpu") else _str_or_none(value)


class DeviceSpec:
    """``tf.DeviceSpec`` (TF1's mutable DeviceSpecV1): job, replica, task, device_type, device_index."""

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job, self.replica, self.task = job, replica, task
        self.device_type, self.device_index = device_type, device_index

    job = property(lambda self: self._job, lambda self, v: setattr(self, "_job", _str_or_none(v)))
    replica = property(lambda self: self._replica, lambda self, v: setattr(self, "_replica", _int_or_none(v)))
    task = property(lambda self: self._task, lambda self, v: setattr(self, "_task", _int_or_none(v)))
    device_type = property(lambda self: self._device_type,
                           lambda self, v: setattr(self, "_device_type", _device_type(v)))
    device_index = property(lambda self: self._device_index,
                            lambda self, v: setattr(self, "_device_index", _int_or_none(v)))

    @staticmethod
    def _string_to_components(spec=None):
        job = replica = task = device_type = device_index = None
        spec = spec or ""
        for y in [x.split(":") for x in spec.split("/")]:
            n = len(y)
            if n == 2 and y[0] == "job":
                job = y[1]
            elif n == 2 and y[0] == "replica":
                replica = y[1]
            elif n == 2 and y[0] == "task":
                task = y[1]
            elif n in (1, 2) and y[0].upper() in _VALID_DEVICE_TYPES:
                if device_type is not None:
                    raise ValueError("Multiple device types are not allowed while parsing the device spec: %s."
                                     % spec)
                device_type = y[0].upper()
                if n == 2 and y[1] != "*":
                    device_index = int(y[1])
            elif n == 3 and y[0] == "device":
                if device_type is not None:
                    raise ValueError("Multiple device types are not allowed while parsing the device spec: %s."
                                     % spec)
                device_type = y[1]
                if y[2] != "*":
                    device_index = int(y[2])
            elif n and y[0] != "":
                raise ValueError("Unknown attribute '%s' is encountered while parsing the device spec: '%s'."
                                 % (y[0], spec))
        return job, replica, task, device_type, device_index

    @classmethod
    def from_string(cls, spec):
        """Parse "/job:ps/replica:0/task:1/device:GPU:0" (or TF1's "/gpu:0", "cpu:*")."""
        return cls(*cls._string_to_components(spec))

    def parse_from_string(self, spec):
        self.job, self.replica, self.task, self.device_type, self.device_index = self._string_to_components(spec)
        return self

    def to_string(self):
        out = []
        if self.job is not None:
            out.append("/job:" + self.job)
        if self.replica is not None:
            out.append("/replica:" + str(self.replica))
        if self.task is not None:
            out.append("/task:" + str(self.task))
        if self.device_type is not None:
            out.append("/device:%s:%s" % (self.device_type, "*" if self.device_index is None else self.device_index))
        return "".join(out)

    def _combined(self, dev):
        return tuple(getattr(dev, k) if getattr(dev, k) is not None else getattr(self, k)
                     for k in ("job", "replica", "task", "device_type", "device_index"))

    def merge_from(self, dev):
        """Fields set in ``dev`` override this spec's (in place)."""
        self.job, self.replica, self.task, self.device_type, self.device_index = self._combined(dev)

    def make_merged_spec(self, dev):
        return type(self)(*self._combined(dev))

    def replace(self, **kwargs):
        fields = dict(job=self.job, replica=self.replica, task=self.task, device_type=self.device_type,
                      device_index=self.device_index)
        fields.update(kwargs)
        return type(self)(**fields)

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __repr__(self):
        return "<DeviceSpec(job=%s, replica=%s, task=%s, device_type=%s, device_index=%s)>" % (
            self.job, self.replica, self.task, self.device_type, self.device_index)


def canonical_name(device):
    """A device (string, DeviceSpec or None) as TF's canonical string ("" for none)."""
    if device is None:
        return ""
    if isinstance(device, DeviceSpec):
        return device.to_string()
    return DeviceSpec.from_string(device).to_string()


class _DeviceEntry:
    """One ``tf.device`` block: a spec merged under the op's own fields, a function of the op, or None
    (which hides every outer block)."""

    def __init__(self, device):
        self.function = None
        self.spec = None
        if callable(device) and not isinstance(device, (str, DeviceSpec)):
            self.function = device
        elif device is not None:
            self.spec = device if isinstance(device, DeviceSpec) else DeviceSpec.from_string(device)
        self.is_null = device is None

    def merge(self, op):
        """TF's MergeDevice: the op's current fields win; this block fills the others."""
        if self.function is not None:
            result = self.function(op)
            spec = result if isinstance(result, DeviceSpec) else DeviceSpec.from_string(result or "")
        else:
            spec = self.spec
        current = DeviceSpec.from_string(op.device or "")
        return spec.make_merged_spec(current).to_string()


def apply_device_functions(stack, op):
    """Set ``op``'s device from the ``tf.device`` blocks around it, innermost first (as TF)."""
    for entry in reversed(stack):
        if entry.is_null:
            break
        op._device = entry.merge(op)


def place_imported(graph, ops_and_devices):
    """Devices of ops just imported from a GraphDef, as TF's importer sets them: an op's own device from the
    file is the innermost ``tf.device`` block, under the blocks open around the import (so a
    ``replica_device_setter`` around ``import_meta_graph`` fills what the file left open); an op colocated
    with others (a ``_class`` attr) takes instead the device of the first of them that has one."""
    colocated = []
    for op, device in ops_and_devices:
        op._device = ""
        classes = op._attrs.get("_class")
        classes = classes if isinstance(classes, (list, tuple)) else ()
        names = [c[5:] for c in classes if isinstance(c, str) and c.startswith("loc:@")]
        if names:
            colocated.append((op, names))
            continue
        try:
            apply_device_functions(graph._device_stack + ([_DeviceEntry(device)] if device else []), op)
        except ValueError as e:
            raise ValueError("Cannot import node '%s': its device %r is not a device: %s" % (op.name, device, e)) \
                from None
    for op, names in colocated:
        for name in names:
            target = graph._get_operation_or_none(name)
            if target is not None and target.device:
                op._device = target.device
                break

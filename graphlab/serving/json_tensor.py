"""TF Serving's JSON for tensors (its json_tensor.cc): a predict request's row ("instances") or columnar
("inputs") form into arrays per signature input, with its checks and messages, and arrays back into
"predictions" or "outputs" (floats written shortest-round-trip with a trailing .0, strings whose output
name ends in _bytes as {"b64": ...})."""
import base64
import binascii
import json
import math
import re

import numpy as np

from graphlab.serving.status import invalid

_KIND = {  # DT_* name -> (numpy dtype, test a JSON leaf passes, the DataTypeString in messages)
    "DT_FLOAT": (np.float32, "number", "float"), "DT_DOUBLE": (np.float64, "number", "double"),
    "DT_INT32": (np.int32, "int", "int32"), "DT_INT16": (np.int16, "int", "int16"),
    "DT_INT8": (np.int8, "int", "int8"), "DT_UINT8": (np.uint8, "int", "uint8"),
    "DT_INT64": (np.int64, "int", "int64"), "DT_UINT32": (np.uint32, "int", "uint32"),
    "DT_UINT64": (np.uint64, "int", "uint64"), "DT_BOOL": (np.bool_, "bool", "bool"),
    "DT_STRING": (object, "string", "string"),
}


def _json_type(v):
    if v is None:
        return "Null"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if isinstance(v, dict):
        return "Object"
    if isinstance(v, list):
        return "Array"
    if isinstance(v, str):
        return "String"
    return "Number"


def _text(v):
    return json.dumps(v, separators=(",", ":"))


def _is_b64(v):
    return isinstance(v, dict) and len(v) == 1 and isinstance(v.get("b64"), str)


def _shape(v):
    dims = []
    while isinstance(v, list):
        dims.append(len(v))
        if not v:
            break
        v = v[0]
    return dims


def _leaf(v, dtype_name):
    np_dtype, kind, tf_name = _KIND[dtype_name]
    if kind == "string":
        if isinstance(v, str):
            return v.encode("utf-8")
        if isinstance(v, dict):
            if not _is_b64(v):
                raise invalid("JSON Value: ", _text(v), " not formatted correctly for base64 data")
            try:
                return base64.b64decode(v["b64"], validate=True)
            except (binascii.Error, ValueError):
                raise invalid("Unable to base64 decode") from None
    elif kind == "bool":
        if isinstance(v, bool):
            return v
    elif kind == "int":
        if isinstance(v, int) and not isinstance(v, bool):
            info = np.iinfo(np_dtype)
            if info.min <= v <= info.max:
                return v
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        if np_dtype is np.float32 and math.isfinite(v):
            limit = 2 ** 24 - 1
            if (isinstance(v, int) and abs(v) > limit) or abs(v) > np.finfo(np.float32).max:
                raise invalid("Cannot convert JSON value: ", _text(v), " to float without loss of precision.")
        return v
    raise invalid("JSON Value: ", _text(v), " Type: ", _json_type(v), " is not of expected type: ", tf_name)


def to_array(value, dtype_name):
    """The JSON value (a scalar or nested lists) as an array of the signature's dtype, checked as TF Serving
    checks it: every leaf at the same depth, lists of one size per level, leaves of the right JSON type."""
    if dtype_name not in _KIND:
        raise ServingUnimplemented(value, dtype_name)
    np_dtype, kind, _ = _KIND[dtype_name]
    if kind != "string":  # fast path: numpy reads a regular nested list at once
        try:
            arr = np.array(value)
        except ValueError:
            arr = None
        if arr is not None and arr.dtype != object and _fast_ok(arr, kind, np_dtype):
            return arr.astype(np_dtype, copy=False)
    shape = _shape(value)
    if len(shape) > 64:
        raise invalid("JSON Value nests lists ", len(shape), " levels deep: a tensor this server feeds has at most "
                      "64 dimensions (numpy's limit)")
    out = []
    _fill(value, 0, shape, dtype_name, out)
    if kind == "string":
        arr = np.empty(len(out), dtype=object)
        arr[:] = out
        return arr.reshape(shape)
    return np.array(out, dtype=np_dtype).reshape(shape)


def ServingUnimplemented(value, dtype_name):  # noqa: N802 (an error factory)
    from graphlab.serving.status import ServingError
    return ServingError("UNIMPLEMENTED", "Conversion of JSON Value: %s to type: %s" % (_text(value), dtype_name))


def _fast_ok(arr, kind, np_dtype):
    if kind == "number":
        return arr.dtype.kind in "if" and (np_dtype is not np.float32 or not arr.size or
                                          (np.abs(arr[np.isfinite(arr)]).max(initial=0) <= np.finfo(np.float32).max
                                           and (arr.dtype.kind == "f" or np.abs(arr).max() < 2 ** 24)))
    if kind == "int":
        if arr.dtype.kind not in "iu":
            return False
        info = np.iinfo(np_dtype)
        return not arr.size or (arr.min() >= info.min and arr.max() <= info.max)
    return kind == "bool" and arr.dtype == np.bool_


def _fill(v, level, shape, dtype_name, out):
    rank = len(shape)
    if not isinstance(v, list):
        if level != rank:
            raise invalid("JSON Value: ", _text(v), " found at incorrect level: ", level + 1,
                          " in the JSON DOM. Expected at level: ", rank)
        if isinstance(v, dict) and dtype_name != "DT_STRING":
            raise invalid("JSON Value: ", _text(v), " Type: Object is not of expected type: ",
                          _KIND[dtype_name][2])
        out.append(_leaf(v, dtype_name))
        return
    if level >= rank:
        raise invalid("Encountered list at unexpected level: ", level, " expected < ", rank)
    if len(v) != shape[level]:
        raise invalid("Encountered list at unexpected size: ", len(v), " at level: ", level,
                      " expected size: ", shape[level])
    for item in v:
        _fill(item, level + 1, shape, dtype_name, out)


# Deepest nesting a request may have: a TensorShape holds at most 254 dimensions (TF's kMaxDims), inside the
# request object, its "instances" list and one object per instance. Deeper documents are refused before
# parsing, so neither the parser nor the checks below recurse without bound.
MAX_DEPTH = 260
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_DEPTH_STEP = np.zeros(256, np.int8)
_DEPTH_STEP[list(b"[{")] = 1
_DEPTH_STEP[list(b"]}")] = -1


class _NumberTooBig(ValueError):
    def __init__(self, text):
        super().__init__(text)
        self.text = text


def _too_deep(body):
    """The offset in `body` where nesting first passes MAX_DEPTH, or None. Strings are skipped (a "[" inside
    one is text), the brackets are counted a megabyte at a time, so a 50 MB body of "[" costs bounded memory."""
    if body.count(b"[") + body.count(b"{") <= MAX_DEPTH:
        return None
    brackets = _STRING.sub(b'""', body).translate(None, _NOT_BRACKET)
    depth = 0
    for start in range(0, len(brackets), 1 << 20):
        steps = _DEPTH_STEP[np.frombuffer(brackets[start:start + (1 << 20)], np.uint8)].astype(np.int32)
        running = np.cumsum(steps) + depth
        over = np.flatnonzero(running > MAX_DEPTH)
        if over.size:
            # where that bracket sits in the body: the (MAX_DEPTH+1)-th unclosed opener
            return _offset_of_bracket(body, start + int(over[0]))
        depth = int(running[-1])
    return None


def _offset_of_bracket(body, k):
    """The byte offset of the k-th bracket (counting from 0, outside strings) in body."""
    seen = 0
    pos = 0
    for m in _STRING.finditer(body):
        between = body[pos:m.start()]
        n = len(between.translate(None, _NOT_BRACKET))
        if seen + n > k:
            break
        seen += n
        pos = m.end()
    for i in range(pos, len(body)):
        if body[i] in b"[]{}":
            if seen == k:
                return i
            seen += 1
    return len(body)


def _number(text):
    """A JSON number as RapidJSON (TF Serving's parser) reads it: a number beyond double range is refused
    ("Number too big to be stored in double"), not taken as Infinity; an integer too long for 64 bits is a double."""
    if "." in text or "e" in text or "E" in text or len(text.lstrip("-")) > 19:
        value = float(text)
        if math.isinf(value):
            raise _NumberTooBig(text)
        if "." not in text and "e" not in text and "E" not in text:
            try:
                as_int = int(text)
            except ValueError:
                return value
            if -(1 << 63) <= as_int < (1 << 64):
                return as_int
        return value
    return int(text)


def parse_request(body):
    """(signature_name, "row"|"columnar", raw value) from a request body (bytes), with TF Serving's errors.
    Runs off the server's event loop: a large body costs its parse time on a worker thread."""
    if not body:
        raise invalid("JSON Parse error: The document is empty")
    deep = _too_deep(body)
    if deep is not None:
        raise invalid("JSON Parse error: The document nests arrays and objects more than ", MAX_DEPTH,
                      " levels deep at offset: ", deep)
    try:
        doc = json.loads(body, parse_float=_number, parse_int=_number)
    except _NumberTooBig as e:
        offset = _number_offset(body, e.text)
        raise invalid("JSON Parse error: Number too big to be stored in double. at offset: ", offset) from None
    except RecursionError:  # cannot happen below MAX_DEPTH; kept as a client error all the same
        raise invalid("JSON Parse error: The document nests too deeply at offset: 0") from None
    except (ValueError, UnicodeDecodeError) as e:
        msg = getattr(e, "msg", str(e))
        raise invalid("JSON Parse error: ", msg, " at offset: ", getattr(e, "pos", 0)) from None
    if not isinstance(doc, dict):
        raise invalid("JSON Value: ", _text(doc)[:200], " Is not object")
    sig = doc.get("signature_name", "")
    if not isinstance(sig, str):
        raise invalid("JSON Value: ", _text(doc)[:200], " not formatted correctly. 'signature_name' key must be a "
                      "string value.")
    if "instances" in doc and "inputs" in doc:
        raise invalid("JSON Value: ", _text(doc)[:200], " Not formatted correctly expecting only one of 'inputs' "
                      "or 'instances' keys to exist ")
    if "instances" in doc:
        if not isinstance(doc["instances"], list):
            raise invalid("JSON Value: ", _text(doc)[:200], " Excepting 'instances' to be an list/array")
        if not doc["instances"]:
            raise invalid("JSON Value: ", _text(doc)[:200], " No values in 'instances' array")
        return sig, "row", doc["instances"]
    if "inputs" in doc:
        return sig, "columnar", doc["inputs"]
    raise invalid("Missing 'inputs' or 'instances' key")


def _is_object(v):
    return isinstance(v, dict) and not _is_b64(v)


def row_inputs(instances, input_dtypes):
    """{input key: batched array} from the "instances" list (a plain list for one input, else objects)."""
    names = sorted(input_dtypes)
    if not _is_object(instances[0]) and len(names) > 1:
        raise invalid("instances is a plain list, but expecting list of objects as multiple input tensors "
                      "required as per tensorinfo_map")
    objects = _is_object(instances[0])
    items = {n: [] for n in names}
    for k, elem in enumerate(instances):
        if objects:
            if not _is_object(elem):
                raise invalid("Expecting object but got list at item ", k, " of input list")
            for name, value in elem.items():
                if name not in input_dtypes:
                    raise invalid("Failed to process element: ", k, " key: ", name, " of 'instances' list. Error: "
                                  "INVALID_ARGUMENT: JSON object: does not have named input: ", name)
                try:
                    items[name].append(to_array(value, input_dtypes[name]))
                except Exception as e:
                    raise invalid("Failed to process element: ", k, " key: ", name, " of 'instances' list. "
                                  "Error: INVALID_ARGUMENT: ", getattr(e, "message", e)) from None
            if set(elem) != set(names):
                raise invalid("Failed to process element: ", k, " of 'instances' list. JSON object: ",
                              _text(elem)[:200], " keys must be equal to: ", ",".join(names))
        else:
            if _is_object(elem):
                raise invalid("Expecting value/list but got object at item ", k, " of input list")
            try:
                items[names[0]].append(to_array(elem, input_dtypes[names[0]]))
            except Exception as e:
                raise invalid("Failed to process element: ", k, " of 'instances' list. Error: "
                              "INVALID_ARGUMENT: ", getattr(e, "message", e)) from None
    out = {}
    for name, arrays in items.items():
        first = arrays[0]
        for k, a in enumerate(arrays[1:], 1):
            if a.size != first.size:
                raise invalid("Failed to process element: ", k, " of 'instances' list. Error: INVALID_ARGUMENT: "
                              "Expecting tensor size: ", first.size, " but got: ", a.size)
            if a.shape != first.shape:
                raise invalid("Failed to process element: ", k, " of 'instances' list. Error: INVALID_ARGUMENT: "
                              "Expecting shape [", ",".join(map(str, first.shape)), "] but got: [",
                              ",".join(map(str, a.shape)), "]")
        out[name] = np.stack(arrays)
    return out


def columnar_inputs(inputs, input_dtypes):
    """{input key: array} from the "inputs" value (a value/list for one input, else an object of them)."""
    names = sorted(input_dtypes)
    if not _is_object(inputs):
        if len(names) > 1:
            raise invalid("inputs is a plain value/list, but expecting an object as multiple input tensors "
                          "required as per tensorinfo_map")
        return {names[0]: to_array(inputs, input_dtypes[names[0]])}
    out = {}
    for name in names:
        if name not in inputs:
            raise invalid("Missing named input: ", name, " in 'inputs' object.")
        out[name] = to_array(inputs[name], input_dtypes[name])
    return out


def _number_offset(body, text):
    """Where the number `text` first appears in body outside a string (RapidJSON's offset for its error)."""
    pattern = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|(?<![0-9.eE+-])' + re.escape(text.encode()) +
                         rb'(?![0-9.eE])')
    for m in pattern.finditer(body):
        if not m.group().startswith(b'"'):
            return m.start()
    return 0


# --- responses ----------------------------------------------------------------------------------------

def _float_text(x, np_dtype):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "-Infinity" if x < 0 else "Infinity"
    s = str(np_dtype(x))
    if "." not in s and "e" not in s and "inf" not in s:
        s += ".0"
    return s


def _write(value, name, out):
    """Append the JSON text of one output value (an array or one element of it) to the list `out`."""
    arr = np.asarray(value)
    if arr.ndim:
        out.append("[")
        for k in range(arr.shape[0]):
            if k:
                out.append(", ")
            _write(arr[k], name, out)
        out.append("]")
        return
    x = arr.item() if arr.dtype != object else arr.reshape(-1)[0]
    if arr.dtype.kind == "f":
        out.append(_float_text(float(x), np.float32 if arr.dtype == np.float32 else np.float64))
    elif arr.dtype == np.bool_:
        out.append("true" if x else "false")
    elif arr.dtype.kind in "iu":
        out.append(str(int(x)))
    else:
        b = x if isinstance(x, bytes) else str(x).encode("utf-8")
        if name.endswith("_bytes"):
            out.append('{"b64": "%s"}' % base64.b64encode(b).decode("ascii"))
        else:
            out.append(json.dumps(b.decode("utf-8", "replace")))


def predict_response(outputs, form):
    """The response body (str) for {output key: array}: row form splits along the batch dimension."""
    names = sorted(outputs)
    parts = []
    if form == "columnar":
        parts.append('{"outputs": ')
        if len(names) == 1:
            _write(outputs[names[0]], names[0], parts)
        else:
            parts.append("{")
            for k, n in enumerate(names):
                parts.append("%s%s: " % (", " if k else "", json.dumps(n)))
                _write(outputs[n], n, parts)
            parts.append("}")
        parts.append("}")
        return "".join(parts)
    batch = None
    for n in names:
        arr = np.asarray(outputs[n])
        if arr.ndim == 0:
            raise invalid("Tensor name: ", n, " has no shape information ")
        if batch is None:
            batch = arr.shape[0]
        elif arr.shape[0] != batch:
            raise invalid("Tensor name: ", n, " has inconsistent batch size: ", arr.shape[0],
                          " expecting: ", batch)
    parts.append('{"predictions": [')
    for i in range(batch or 0):
        if i:
            parts.append(", ")
        if len(names) == 1:
            _write(outputs[names[0]][i], names[0], parts)
        else:
            parts.append("{")
            for k, n in enumerate(names):
                parts.append("%s%s: " % (", " if k else "", json.dumps(n)))
                _write(outputs[n][i], n, parts)
            parts.append("}")
    parts.append("]}")
    return "".join(parts)

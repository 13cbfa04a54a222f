"""``model.summary()``: Keras's table of layers, printed with tf-keras's column widths and line breaking
(a sequential-like model: 65 columns; a graph with branches or shared layers: 98, with "Connected to")."""
import re

import numpy as np

from graphlab.framework import dtypes, tensor_shape


def count_params(weights):
    unique = {id(w): w for w in weights}.values()
    total = 0
    for w in unique:
        dims = [0 if d is None else d for d in tensor_shape.as_shape(w.shape).as_list()]
        total += int(np.prod(dims))
    return int(total)


def weight_memory_size(weights):
    unique = {id(w): w for w in weights}.values()
    total = 0
    for w in unique:
        dims = [0 if d is None else d for d in tensor_shape.as_shape(w.shape).as_list()]
        total += int(np.prod(dims)) * dtypes.as_dtype(w.dtype).base_dtype.size
    return total


def readable_memory_size(size):
    """'104.00 Byte', '1.50 KB', ... (powers of 1024)."""
    for unit in ["Byte", "KB", "MB", "GB", "TB", "PB"]:
        if size / 1024 < 1:
            return "%.2f %s" % (size, unit)
        size /= 1024
    return "%.2f %s" % (size, "PB")


def _sequential_like(model):
    if type(model).__name__ == "Sequential" or not model._is_graph_network:
        return True
    nodes = []
    for group in model._nodes_by_depth.values():
        if len(group) > 1 or (len(group) == 1 and len(group[0].keras_inputs) > 1):
            return False
        nodes += group
    for layer in model.layers:
        found = False
        for node in layer._inbound_nodes:
            if node in nodes:
                if found:
                    return False
                found = True
    return True


def _layer_range(model, layer_range):
    if layer_range is None:
        return [0, len(model.layers)]
    if len(layer_range) != 2:
        raise ValueError("layer_range must be a list or tuple of length 2. Received: layer_range = %s of length %d"
                         % (layer_range, len(layer_range)))
    lower = [i for i, layer in enumerate(model.layers) if re.match(layer_range[0], layer.name)]
    upper = [i for i, layer in enumerate(model.layers) if re.match(layer_range[1], layer.name)]
    if not lower or not upper:
        raise ValueError("Passed layer_names do not match the layer names in the model. Received: %s"
                         % (layer_range,))
    if min(lower) > max(upper):
        return [min(upper), max(lower) + 1]
    return [min(lower), max(upper) + 1]


def _rows(fields, positions, nested_level=0):
    """The lines of one table row: each column cut to its width, long text carried to the next line
    (breaking after '),', '},', '],' or "'," when one occurs in the part that fits)."""
    left = [str(x) for x in fields]
    lines = []
    while any(left):
        line = ""
        for col in range(len(left)):
            start = positions[col - 1] if col > 0 else 0
            end = positions[col]
            space = 2 if col != len(positions) - 1 else 0
            cutoff = end - start - space
            if col != len(positions) - 1:
                cutoff -= 1
            if col == 0:
                cutoff -= nested_level
            fit = left[col][:cutoff]
            breaks = [fit.find(x) + len(x) for x in ("),", "},", "],", "',") if fit.find(x) >= 0]
            if breaks:
                cutoff = min(breaks)
                fit = fit[:cutoff]
            if col == 0:
                line += "|" * nested_level + " "
            line += fit
            line += " " * space if space else ""
            left[col] = left[col][cutoff:]
            if nested_level and col == len(positions) - 1:
                line += " " * (positions[col] - len(line) - nested_level)
            else:
                line += " " * (positions[col] - len(line))
        line += "|" * nested_level
        lines.append(line)
    return lines


def print_summary(model, line_length=None, positions=None, print_fn=None, expand_nested=False,
                  show_trainable=False, layer_range=None):
    """Print (or pass to ``print_fn`` line by line) the summary table of ``model``."""
    if print_fn is None:
        print_fn = print
    sequential_like = _sequential_like(model)
    if sequential_like:
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        relevant_nodes = []
    else:
        line_length = line_length or 98
        positions = positions or [0.3, 0.6, 0.70, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        relevant_nodes = [n for group in model._nodes_by_depth.values() for n in group]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    positions = list(positions)
    if show_trainable:
        line_length += 11
        positions.append(line_length)
        header.append("Trainable")
    bounds = _layer_range(model, layer_range)

    def emit(fields, nested_level=0):
        for line in _rows(fields, positions, nested_level):
            print_fn(line)

    def layer_fields(layer):
        try:
            output_shape = layer.output_shape
        except AttributeError:
            output_shape = "multiple"
        name = "%s (%s)" % (layer.name, type(layer).__name__)
        if sequential_like:
            if not layer.built and not getattr(layer, "_is_graph_network", False):
                params = "0 (unused)"
            else:
                params = layer.count_params()
            fields = [name, output_shape, params]
        else:
            connections = []
            for node in layer._inbound_nodes:
                if relevant_nodes and node not in relevant_nodes:
                    continue
                for inbound, node_index, tensor_index, _ in node.iterate_inbound():
                    connections.append("%s[%d][%d]" % (inbound.name, node_index, tensor_index))
            fields = [name, output_shape, layer.count_params(), connections]
        if show_trainable:
            fields.append("Y" if layer.trainable else "N")
        return fields

    def print_layer(layer, nested_level=0, is_nested_last=False):
        emit(layer_fields(layer), nested_level)
        if expand_nested and hasattr(layer, "layers") and layer.layers:
            print_fn("|" * (nested_level + 1) + "\u00af" * (line_length - 2 * nested_level - 2)
                     + "|" * (nested_level + 1))
            inner = layer.layers
            for i, sub in enumerate(inner):
                print_layer(sub, nested_level + 1, i == len(inner) - 1)
            print_fn("|" * nested_level + "\u00af" * (line_length - 2 * nested_level) + "|" * nested_level)
        if not is_nested_last:
            print_fn("|" * nested_level + " " * (line_length - 2 * nested_level) + "|" * nested_level)

    print_fn('Model: "%s"' % model.name)
    print_fn("_" * line_length)
    emit(header)
    print_fn("=" * line_length)
    for layer in model.layers[bounds[0]:bounds[1]]:
        print_layer(layer)
    print_fn("=" * line_length)
    trainable = getattr(model, "_collected_trainable_weights", None)
    if trainable is None:
        trainable = model.trainable_weights
    trainable_count, trainable_size = count_params(trainable), weight_memory_size(trainable)
    non_trainable = model.non_trainable_weights
    non_trainable_count, non_trainable_size = count_params(non_trainable), weight_memory_size(non_trainable)
    print_fn("Total params: %d (%s)" % (trainable_count + non_trainable_count,
                                        readable_memory_size(trainable_size + non_trainable_size)))
    print_fn("Trainable params: %d (%s)" % (trainable_count, readable_memory_size(trainable_size)))
    print_fn("Non-trainable params: %d (%s)" % (non_trainable_count, readable_memory_size(non_trainable_size)))
    print_fn("_" * line_length)

"""Walks a traced ATen graph and writes each node through NetworkBuilder.

Each node's handler (marlmap.importer.aten) gets the node's arguments with
the graph's values replaced by the builder's (`BuiltValue`), and returns
what the node produces: a value, a tuple of them, or a Python number. A
node no handler covers, or one a handler refuses, stops the import with
UnsupportedOperation naming the node, its operation and the module it sits
in.
"""

import operator

import torch

from .. import _marlmap

#: ATen operation name (as str(node.target) spells it) -> handler.
HANDLERS = {}


def handles(*names):
    """Registers the decorated function as the handler of `names`."""
    def register(handler):
        for name in names:
            HANDLERS[name] = handler
        return handler
    return register


class UnsupportedOperation(ValueError):
    """A graph node the importer cannot write as linalg."""


class Transposed:
    """A 2-d value read transposed: a matmul takes it as it is (its
    indexing maps do the transpose), anything else gets a linalg.transpose
    of it."""

    def __init__(self, value):
        self.value = value
        self.shape = tuple(reversed(value.shape))


class Lowering:
    """One import: the builder, and the value of every node done so far."""

    def __init__(self, traced, function):
        self.traced = traced
        self.builder = _marlmap.NetworkBuilder(function)
        self.values = {}
        self.node = None

    # Where the current node is, for the builder's locations.
    def where(self, node=None):
        node = node or self.node
        return node.meta.get("module") or node.name

    def refuse(self, reason):
        """Stops the import at the current node."""
        node = self.node
        module = node.meta.get("module")
        place = f"in module '{module}'" if module else "outside any submodule"
        raise UnsupportedOperation(
            f"graph node '{node.name}' ({node.target}) {place}: {reason}")

    def tensor(self, value):
        """`value` as a tensor of the network (a transposed one
        materialized)."""
        if isinstance(value, Transposed):
            return self.builder.permute(self.where(), value.value, [1, 0])
        if not isinstance(value, _marlmap.BuiltValue):
            self.refuse(f"expected a tensor, got {value!r}")
        return value

    def shape_of(self, node=None):
        """The shape PyTorch computed for the current node's output."""
        meta = (node or self.node).meta.get("tensor_meta")
        if isinstance(meta, (tuple, list)) and meta:  # the first output's
            meta = meta[0]
        if meta is None or not hasattr(meta, "shape"):
            self.refuse("the trace recorded no shape for it")
        return list(meta.shape)

    def _mapped(self, argument):
        if isinstance(argument, torch.fx.Node):
            return self.values[argument]
        if isinstance(argument, (list, tuple)):
            return type(argument)(self._mapped(a) for a in argument)
        return argument

    def _placeholder(self, node, name):
        meta = node.meta.get("tensor_meta")
        if meta is None or not hasattr(meta, "dtype"):
            self.refuse("an input that is not a tensor")
        if meta.dtype == torch.float32:
            integer = False
        elif meta.dtype == torch.int64:
            integer = True
        else:
            self.refuse(f"an input of {meta.dtype}: the importer writes f32 "
                        "networks (and i64 indices)")
        return self.builder.argument(list(meta.shape), name, integer)

    def run(self, target=None):
        """The module's text."""
        names = iter(self.traced.placeholder_names)
        results = []
        for node in self.traced.graph.graph.nodes:
            self.node = node
            if node.op == "placeholder":
                self.values[node] = self._placeholder(node, next(names))
            elif node.op == "call_function":
                self.values[node] = self._call(node)
            elif node.op == "output":
                outputs = torch.utils._pytree.tree_flatten(
                    self._mapped(node.args[0]))[0]
                results = [self.tensor(output) for output in outputs
                           if output is not None]
            else:
                self.refuse(f"a graph node of kind '{node.op}'")
        return self.builder.finish(results, target)

    def _call(self, node):
        if node.target is operator.getitem:
            container, index = self._mapped(node.args)
            picked = container[index]
            return picked
        handler = HANDLERS.get(str(node.target))
        if handler is None:
            self.refuse("no linalg lowering for this operation "
                        "(docs/Limits.md lists what the importer takes)")
        args = self._mapped(node.args)
        kwargs = {key: self._mapped(value)
                  for key, value in node.kwargs.items()}
        try:
            return handler(self, *args, **kwargs)
        except UnsupportedOperation:
            raise
        except ValueError as error:  # the builder's diagnostics
            self.refuse(str(error))

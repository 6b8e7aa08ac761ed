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
        materialized, a constant written as one)."""
        if isinstance(value, Transposed):
            return self.builder.permute(self.where(), value.value, [1, 0])
        if isinstance(value, torch.Tensor):
            return self._constant(value)
        if not isinstance(value, _marlmap.BuiltValue):
            self.refuse(f"expected a tensor, got {value!r}")
        return value

    def _constant(self, value):
        if value.dtype in (torch.float32, torch.float64, torch.float16):
            integer = False
        elif value.dtype in (torch.int64, torch.int32):
            integer = True
        else:
            self.refuse(f"a constant of {value.dtype} reaches an op that "
                        "computes")
        flat = value.flatten().tolist()
        if flat and all(v == flat[0] for v in flat):
            flat = flat[:1]  # a splat
        return self.builder.constant(self.where(), list(value.shape), flat,
                                     integer)

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
            elif node.op == "get_attr":  # a tensor the model's code made
                self.values[node] = getattr(self.traced.graph, node.target)
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
            return container[index]
        args = self._mapped(node.args)
        kwargs = {key: self._mapped(value)
                  for key, value in node.kwargs.items()}
        if not _reaches_network(args, kwargs):
            # Computed from constants alone (masks, position tables the
            # model's code builds): PyTorch computes it, once, here.
            return node.target(*args, **kwargs)
        handler = HANDLERS.get(str(node.target))
        if handler is None:
            self.refuse("no linalg lowering for this operation "
                        "(docs/Limits.md lists what the importer takes)")
        try:
            return handler(self, *args, **kwargs)
        except UnsupportedOperation:
            raise
        except ValueError as error:  # the builder's diagnostics
            self.refuse(str(error))


def _reaches_network(args, kwargs):
    """Whether any argument is a value of the network being built."""
    flat = torch.utils._pytree.tree_flatten((args, kwargs))[0]
    return any(isinstance(a, (_marlmap.BuiltValue, Transposed)) for a in flat)

"""A PyTorch model traced down to ATen operations.

The model runs once on real example tensors under
`torch.fx.experimental.proxy_tensor.make_fx`, functionalized (no in-place
ops, no aliasing views left to track) and with its parameters and buffers
passed in as inputs, so that they become the graph's placeholders (the
imported function's arguments) rather than constants. Symbolic tracing is
not used: it fails on models whose code depends on shapes (ShuffleNet v2,
ViT). Hooks on every submodule record which module each graph node came
from (`node.meta["module"]`, the innermost module's qualified name): the
imported ops' locations, and what an error names.
"""

import functools
import importlib
import importlib.util
import os

import torch
from torch.fx.experimental.proxy_tensor import make_fx
from torch.nn.utils.stateless import functional_call
from torch.utils._python_dispatch import _get_current_dispatch_mode

try:  # PyTorch 1.13 ships functionalize with functorch
    from functorch import functionalize
except ImportError:  # later releases
    from torch.func import functionalize


class Traced:
    """A traced model: its ATen graph (`graph`, a torch.fx.GraphModule) and
    the names of its placeholders, parameters and buffers first
    (`placeholder_names`), then the example inputs (`input0`, ...)."""

    def __init__(self, graph, placeholder_names):
        self.graph = graph
        self.placeholder_names = placeholder_names


def load_model(spec):
    """The nn.Module a command-line `spec` names: `torchvision:NAME` (the
    architecture, no weights), `path/to/file.py:FUNCTION` or
    `package.module:FUNCTION` (called with no arguments)."""
    source, sep, name = spec.rpartition(":")
    if not sep or not source or not name:
        raise ValueError(f"'{spec}' is not torchvision:NAME, FILE.py:FUNCTION "
                         "or MODULE:FUNCTION")
    if source == "torchvision":
        import torchvision.models as models
        if name not in models.list_models(module=models):
            raise ValueError(f"torchvision has no classification model "
                             f"'{name}'")
        return getattr(models, name)(weights=None)
    if source.endswith(".py"):
        if not os.path.isfile(source):
            raise ValueError(f"no file '{source}'")
        unique = "marlmap_user_model_" + str(abs(hash(os.path.abspath(source))))
        module_spec = importlib.util.spec_from_file_location(unique, source)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(source)
    build = getattr(module, name, None)
    if not callable(build):
        raise ValueError(f"'{source}' has no function '{name}'")
    model = build()
    if not isinstance(model, torch.nn.Module):
        raise ValueError(f"{spec}() returned a {type(model).__name__}, not a "
                         "torch.nn.Module")
    return model


def _scope_hooks(model):
    """Hooks that tag the graph nodes each submodule's forward adds with its
    qualified name (inner modules tag first, so the innermost wins)."""
    marks = {}

    def graph():
        mode = _get_current_dispatch_mode()
        tracer = getattr(mode, "tracer", None)
        return getattr(tracer, "graph", None)

    def before(name, module, inputs):
        current = graph()
        if current is not None:
            marks[name] = current._root.prev

    def after(name, module, inputs, output):
        current = graph()
        start = marks.pop(name, None)
        if current is None or start is None:
            return
        node = start.next
        while node is not current._root:
            node.meta.setdefault("module", name)
            node = node.next

    handles = []
    for name, sub in model.named_modules():
        if name:
            handles.append(sub.register_forward_pre_hook(
                functools.partial(before, name)))
            handles.append(sub.register_forward_hook(
                functools.partial(after, name)))
    return handles


def trace(model, example_inputs):
    """`model` (put in eval mode) traced on `example_inputs` (a tensor or a
    tuple of them)."""
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    for i, example in enumerate(example_inputs):
        if not isinstance(example, torch.Tensor):
            raise ValueError(f"example input {i} is a "
                             f"{type(example).__name__}, not a tensor")
    model.eval()
    state = dict(model.named_parameters())
    state.update(model.named_buffers())

    def run(state, *inputs):
        return functional_call(model, state, inputs)

    handles = _scope_hooks(model)
    try:
        with torch.no_grad():
            graph = make_fx(functionalize(run))(state, *example_inputs)
    finally:
        for handle in handles:
            handle.remove()
    names = list(state) + [f"input{i}" for i in range(len(example_inputs))]
    return Traced(graph, names)

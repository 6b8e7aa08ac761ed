"""PyTorch models in: a torch.nn.Module written as linalg.

`from_torch(module, example_inputs)` traces the module on its example
inputs down to ATen operations (marlmap.importer.tracing) and writes each
one through MLIR's builders (marlmap.NetworkBuilder): convolutions and
matmuls as named linalg ops, the rest that computes as generics, shape
changes as tensor ops, parameters as the function's arguments. The command
`marlmap-import` (marlmap.importer.command) does the same from the shell.
"""

from . import aten, attention  # noqa: F401  (they register the handlers)
from .lowering import UnsupportedOperation
from .tracing import load_model, trace

__all__ = ["UnsupportedOperation", "from_torch", "load_model", "trace"]


def from_torch(module, example_inputs, target=None, name=None):
    """The MLIR module (text) of `module` run on `example_inputs` (a tensor
    or a tuple of tensors): one function, named `name` (the module's class
    name in lower case by default), taking the parameters and buffers
    (named by their qualified names), then the inputs. `target` sets the
    module's `accel.target` (a preset's name or a description file).
    Raises UnsupportedOperation naming the graph node, its operation and
    the submodule it sits in for what has no lowering."""
    from .lowering import Lowering
    traced = trace(module, example_inputs)
    function = name or type(module).__name__.lower()
    return Lowering(traced, function).run(target)

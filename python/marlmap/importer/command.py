"""marlmap-import: a PyTorch model as an MLIR module of linalg ops.

    marlmap-import torchvision:resnet50 --input 1,3,224,224 -o resnet50.mlir
    marlmap-import my_model.py:build_model --input 1,16 --target eyeriss

The model is `torchvision:NAME` (the architecture, without weights),
`FILE.py:FUNCTION` or `MODULE:FUNCTION` (a function that returns the
nn.Module); each `--input` gives one example input's shape. The output
(stdout without `-o`) is what marlmap-opt --marl-map, marlmap-explore and
marlmap.map_module take as it is.
"""

import argparse
import sys


def _shape(text):
    try:
        shape = [int(part) for part in text.split(",")]
    except ValueError:
        shape = []
    if not shape or min(shape) < 1:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a shape such as 1,3,224,224")
    return shape


def _parser():
    parser = argparse.ArgumentParser(
        prog="marlmap-import",
        description="Writes a PyTorch model as an MLIR module of linalg ops "
                    "(docs/Python.md, 'PyTorch models').")
    parser.add_argument("model", help="torchvision:NAME, FILE.py:FUNCTION or "
                                      "MODULE:FUNCTION")
    parser.add_argument("--input", type=_shape, action="append",
                        required=True, metavar="SHAPE",
                        help="an example input's shape, e.g. 1,3,224,224 "
                             "(once per input, in order)")
    parser.add_argument("-o", "--output", default="-",
                        help="the .mlir file to write (default: stdout)")
    parser.add_argument("--target", help="the module's accel.target: a "
                                         "preset or a description file")
    parser.add_argument("--name", help="the function's name (default: the "
                                       "model's name)")
    return parser


def _provenance(args):
    """A comment naming the command that writes the file (without -o): the
    file says where it comes from and how to write it again."""
    words = ["marlmap-import", args.model]
    for shape in args.input:
        words += ["--input", ",".join(map(str, shape))]
    for option in ("target", "name"):
        if getattr(args, option):
            words += [f"--{option}", getattr(args, option)]
    return f"// Written by: {' '.join(words)}\n"


def main(argv=None):
    args = _parser().parse_args(argv)
    # torch is slow to import: only once the arguments are known to be fine.
    import torch
    from . import UnsupportedOperation, from_torch, load_model
    try:
        with torch.random.fork_rng(devices=[]):  # the model's initialisation
            model = load_model(args.model)
        generator = torch.Generator().manual_seed(0)
        inputs = tuple(torch.randn(shape, generator=generator)
                       for shape in args.input)
        name = args.name or args.model.rpartition(":")[2]
        text = from_torch(model, inputs, target=args.target, name=name)
    except (UnsupportedOperation, ValueError) as error:
        sys.exit(f"marlmap-import: error: {error}")
    except Exception as error:  # the model's own code failed on the inputs
        sys.exit(f"marlmap-import: error: {args.model} failed on inputs of "
                 f"shape {' and '.join(map(str, args.input))}: "
                 f"{type(error).__name__}: {error}")
    text = _provenance(args) + text
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as out:
            out.write(text)

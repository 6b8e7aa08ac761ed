"""The imported IR computes what PyTorch computes: small models imported,
lowered to LLVM with mlir-opt-22 and run with mlir-runner-22 on random
parameters and inputs, their outputs within float tolerance of PyTorch's."""

import os
import re
import shutil
import subprocess

import pytest

torch = pytest.importorskip("torch")
torchvision = pytest.importorskip("torchvision")

from marlmap.importer import from_torch  # noqa: E402

LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
LOWERING = [
    "--one-shot-bufferize=bufferize-function-boundaries",
    # LLVM's intrinsics for the math it has, libm for the rest (erf).
    "--convert-linalg-to-loops", "--convert-math-to-llvm",
    "--convert-math-to-libm", "--expand-strided-metadata", "--lower-affine",
    "--convert-scf-to-cf", "--finalize-memref-to-llvm",
    "--convert-arith-to-llvm", "--convert-func-to-llvm",
    "--convert-cf-to-llvm", "--reconcile-unrealized-casts",
]


def tool(name):
    path = shutil.which(f"{name}-22") or os.path.join(LLVM_BIN, name)
    if not os.path.exists(path):
        pytest.skip(f"{name} is not installed")
    return path


def tensor_type(shape, dtype):
    element = "i64" if dtype == torch.int64 else "f32"
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def _nested(value):
    """`value` as the inside of an MLIR dense literal: row-major nesting,
    one bracket per dim."""
    if value.dim() == 0:
        return f"{float(value):.9e}" if value.dtype != torch.int64 \
            else str(int(value))
    return "[" + ", ".join(_nested(v) for v in value) + "]"


def run_imported(text, function, arguments, outputs):
    """Runs `function` of `text` on `arguments` (tensors, in the function's
    order) with mlir-runner; its results, shaped like `outputs`."""
    driver = ["func.func private @printMemrefF32(tensor<*xf32>)",
              "func.func @main() {"]
    names = []
    for i, argument in enumerate(arguments):
        literal = _nested(argument)
        driver.append(f"  %a{i} = arith.constant dense<{literal}> : "
                      f"{tensor_type(argument.shape, argument.dtype)}")
        names.append(f"%a{i}")
    types = ", ".join(tensor_type(a.shape, a.dtype) for a in arguments)
    results = ", ".join(tensor_type(o.shape, o.dtype) for o in outputs)
    outs = ", ".join(f"%r{i}" for i in range(len(outputs)))
    driver.append(f"  {outs} = call @{function}({', '.join(names)}) : "
                  f"({types}) -> ({results})")
    for i, output in enumerate(outputs):
        driver.append(f"  %u{i} = tensor.cast %r{i} : "
                      f"{tensor_type(output.shape, output.dtype)} to "
                      "tensor<*xf32>")
        driver.append(f"  call @printMemrefF32(%u{i}) : (tensor<*xf32>) -> ()")
    driver += ["  return", "}"]
    # The driver goes inside the imported module, before its last brace.
    body = text.rstrip()
    end = body.rfind("}")
    program = body[:end] + "\n".join(driver) + "\n" + body[end:]
    lowered = subprocess.run([tool("mlir-opt"), *LOWERING], input=program,
                             capture_output=True, text=True)
    assert lowered.returncode == 0, lowered.stderr[-3000:]
    ran = subprocess.run(
        [tool("mlir-runner"), "-e", "main", "-entry-point-result=void",
         f"-shared-libs={LLVM_LIB}/libmlir_runner_utils.so,"
         f"{LLVM_LIB}/libmlir_c_runner_utils.so"],
        input=lowered.stdout, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-3000:]
    printed = ran.stdout.split("Unranked Memref")[1:]
    assert len(printed) == len(outputs)
    values = []
    for block, output in zip(printed, outputs):
        numbers = re.findall(r"-?(?:\d+\.?\d*(?:e[-+]?\d+)?|inf|nan)",
                             block.split("data =", 1)[1])
        values.append(torch.tensor([float(n) for n in numbers]).reshape(
            output.shape))
    return values


def check_runs_as_in_pytorch(model, *shapes):
    generator = torch.Generator().manual_seed(0)
    model.eval()
    # Weights of either sign and batch statistics of a positive variance:
    # activations that neither vanish nor saturate what follows them. Other
    # buffers (position indices) are the model's structure: kept.
    with torch.no_grad():
        for name, value in list(model.named_parameters()) + list(
                model.named_buffers()):
            if name.endswith("running_var"):
                value.copy_(torch.rand(value.shape, generator=generator) + 0.5)
            elif name.endswith("running_mean") or name in dict(
                    model.named_parameters()):
                value.copy_(torch.randn(value.shape, generator=generator)
                            * 0.5)
    inputs = tuple(torch.randn(shape, generator=generator) for shape in shapes)
    with torch.no_grad():
        expected = model(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    text = from_torch(model, inputs, name="net")
    state = dict(model.named_parameters())
    state.update(model.named_buffers())
    arguments = [v.detach() for v in state.values()] + list(inputs)
    got = run_imported(text, "net", arguments, expected)
    for value, reference in zip(got, expected):
        assert reference.std() > 0.05  # the outputs tell inputs apart
        assert torch.allclose(value, reference, rtol=1e-4, atol=1e-4), \
            (value - reference).abs().max()


def test_convolutions_pooling_and_a_linear_layer_run_as_in_pytorch():
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, stride=2, padding=1), torch.nn.BatchNorm2d(8),
        torch.nn.ReLU6(), torch.nn.Conv2d(8, 8, 3, padding=1, groups=8),
        torch.nn.Conv2d(8, 12, 1, groups=4), torch.nn.Hardswish(),
        torch.nn.MaxPool2d(3, 2, ceil_mode=True), torch.nn.AvgPool2d(2),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
        torch.nn.Linear(12, 5), torch.nn.Sigmoid())
    check_runs_as_in_pytorch(model, (2, 3, 19, 17))


def test_an_attention_block_runs_as_in_pytorch():
    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = torch.nn.LayerNorm(16)
            self.attention = torch.nn.MultiheadAttention(16, 4,
                                                         batch_first=True)
            self.mlp = torch.nn.Sequential(torch.nn.Linear(16, 32),
                                           torch.nn.GELU(),
                                           torch.nn.Linear(32, 16))

        def forward(self, x):
            y = self.norm(x)
            x = x + self.attention(y, y, y, need_weights=False)[0]
            return torch.softmax(x + self.mlp(x), dim=-1)

    check_runs_as_in_pytorch(Block(), (2, 6, 16))


def test_a_shifted_window_block_runs_as_in_pytorch():
    from torchvision.models.swin_transformer import SwinTransformerBlock
    block = SwinTransformerBlock(dim=8, num_heads=2, window_size=[4, 4],
                                 shift_size=[2, 2], stochastic_depth_prob=0.0)
    check_runs_as_in_pytorch(block, (1, 8, 8, 8))

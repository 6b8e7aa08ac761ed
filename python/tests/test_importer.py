"""marlmap.importer: PyTorch modules written as linalg. Each case traces a
module, imports it, and checks the ops linalg names, that the module
parses and verifies again, and that the multiply-accumulates of its
convolutions and matmuls equal PyTorch's own count (its profiler's FLOPs,
two per MAC)."""

import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")
torchvision = pytest.importorskip("torchvision")

import marlmap  # noqa: E402
from marlmap.importer import UnsupportedOperation, from_torch  # noqa: E402

_COUNTED = {"aten::conv2d", "aten::mm", "aten::addmm", "aten::bmm",
            "aten::matmul"}


def torch_macs(module, inputs):
    """The MACs of the convolutions and matrix products PyTorch runs."""
    from torch.profiler import ProfilerActivity, profile
    module.eval()
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU],
                                  with_flops=True) as run:
        module(*inputs)
    return sum(event.flops for event in run.events()
               if event.flops and event.name in _COUNTED) // 2


def imported_macs(text):
    """The MACs of the imported convolutions and matmuls."""
    return sum(op.problem.macs for op in marlmap.ops(text)
               if op.problem and ("conv" in op.op or "matmul" in op.op))


def imported(module, *inputs):
    generator = torch.Generator().manual_seed(0)
    inputs = tuple(torch.randn(shape, generator=generator)
                   for shape in inputs)
    text = from_torch(module, inputs)
    assert imported_macs(text) == torch_macs(module, inputs)
    return text


class Conv(torch.nn.Module):
    def __init__(self, **conv):
        super().__init__()
        self.conv = torch.nn.Conv2d(**conv)

    def forward(self, x):
        return self.conv(x)


@pytest.mark.parametrize("conv, op", [
    (dict(in_channels=3, out_channels=8, kernel_size=3), "conv_2d_nchw_fchw"),
    (dict(in_channels=3, out_channels=8, kernel_size=(3, 5), stride=2,
          padding=(1, 2), dilation=(1, 2), bias=False), "conv_2d_nchw_fchw"),
    (dict(in_channels=8, out_channels=8, kernel_size=3, padding=1, groups=8),
     "depthwise_conv_2d_nchw_chw"),
    (dict(in_channels=8, out_channels=12, kernel_size=3, groups=4),
     "conv_2d_ngchw_gfchw"),
    (dict(in_channels=4, out_channels=8, kernel_size=1, groups=4),
     "conv_2d_ngchw_gfchw"),
])
def test_a_convolution_is_a_linalg_convolution(conv, op):
    text = imported(Conv(**conv), (2, conv["in_channels"], 13, 11))
    assert f"linalg.{op}" in text
    assert "linalg.generic" in text or not conv.get("bias", True)


def test_a_linear_layer_is_a_transposed_matmul_on_collapsed_inputs():
    text = imported(torch.nn.Linear(16, 24), (2, 5, 16))
    problems = [op for op in marlmap.ops(text) if op.op == "linalg.matmul"]
    assert len(problems) == 1
    assert problems[0].problem.loops == {"m": 10, "n": 24, "k": 16}


def test_a_batched_product_is_a_batch_matmul():
    class Product(torch.nn.Module):
        def forward(self, a, b):
            return torch.bmm(a, b.transpose(1, 2))

    text = imported(Product(), (3, 4, 5), (3, 6, 5))
    assert "linalg.batch_matmul" in text
    assert "linalg.transpose" in text


def test_attention_is_decomposed_into_its_matmuls():
    attention = torch.nn.MultiheadAttention(16, 4, batch_first=True)

    class SelfAttention(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attention = attention

        def forward(self, x):
            return self.attention(x, x, x, need_weights=False)[0]

    text = imported(SelfAttention(), (2, 7, 16))
    ops = [op.op for op in marlmap.ops(text)]
    # q, k, v and the output projection; the two products per head.
    assert ops.count("linalg.matmul") == 4
    assert ops.count("linalg.batch_matmul") == 2


def test_batch_norm_is_one_generic_over_the_activation():
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, bias=False),
                                torch.nn.BatchNorm2d(4))
    text = imported(model, (1, 3, 8, 8))
    # Its per-channel arithmetic is in the body, not separate small ops
    # that a mapper would take for problems.
    assert [op.op for op in marlmap.ops(text)] == [
        "linalg.conv_2d_nchw_fchw", "linalg.generic"]
    assert "math.rsqrt" in text


def test_the_builder_refuses_a_batch_norm_of_the_wrong_width():
    builder = marlmap.NetworkBuilder("f")
    x = builder.argument([1, 4, 3, 3], "x")
    stats = builder.argument([3], "stats")
    with pytest.raises(ValueError, match="one value per channel \\(4\\)"):
        builder.batch_norm("bn", x, stats, stats, None, None, 1e-5)


def test_pooling_and_normalisation_compute_as_generics():
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
        torch.nn.MaxPool2d(3, 2, ceil_mode=True), torch.nn.AvgPool2d(2),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
        torch.nn.LayerNorm(4), torch.nn.GELU(), torch.nn.Softmax(dim=1))
    text = imported(model, (1, 3, 17, 17))
    for op in ("linalg.pooling_nchw_max", "linalg.pooling_nchw_sum",
               "math.erf", "math.exp", "math.rsqrt"):
        assert op in text


@pytest.mark.parametrize("name, size", [
    ("resnet18", 64), ("vgg11", 224), ("mobilenet_v2", 64),
    ("mobilenet_v3_small", 64), ("mnasnet0_5", 64), ("efficientnet_b0", 64),
    ("regnet_x_400mf", 64), ("shufflenet_v2_x0_5", 64),
    ("squeezenet1_1", 64), ("googlenet", 64), ("inception_v3", 75),
    ("densenet121", 64), ("convnext_tiny", 64), ("vit_b_16", 224),
    ("swin_t", 64), ("swin_v2_t", 64), ("maxvit_t", 224),
])
def test_torchvision_models_import_with_their_macs(name, size):
    with torch.random.fork_rng(devices=[]):
        model = getattr(torchvision.models, name)(weights=None)
    text = imported(model, (1, 3, size, size))
    mapped = marlmap.map_module(text, arch="eyeriss", searcher="random",
                                budget=2, threads=1)
    assert mapped.report["ops"]


def test_ops_are_located_at_their_layers():
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU())
    text = from_torch(model, torch.zeros(1, 3, 8, 8), target="simba")
    conv = [op for op in marlmap.ops(text) if "conv" in op.op][0]
    assert '"0"' in str(conv)
    assert 'accel.target = "simba"' in text


def test_an_operation_without_a_lowering_is_named_where_it_sits():
    class Head(torch.nn.Module):
        def forward(self, x):
            return torch.sort(x, dim=1)[0]

    model = torch.nn.Sequential(torch.nn.Linear(4, 4), Head())
    with pytest.raises(UnsupportedOperation,
                       match=r"graph node 'sort' \(aten\.sort\.default\) "
                             r"in module '1': no linalg lowering"):
        from_torch(model, torch.zeros(2, 4))


def test_a_transposed_convolution_is_refused_with_its_reason():
    model = torch.nn.Sequential(torch.nn.ConvTranspose2d(3, 4, 2))
    with pytest.raises(UnsupportedOperation,
                       match="in module '0': transposed convolutions"):
        from_torch(model, torch.zeros(1, 3, 8, 8))


def run_command(*args, cwd=None):
    # The package these tests import, wherever the command runs from.
    package = os.path.dirname(os.path.dirname(os.path.abspath(
        marlmap.__file__)))
    env = dict(os.environ, PYTHONPATH=package)
    return subprocess.run([sys.executable, "-m", "marlmap.importer", *args],
                          capture_output=True, text=True, cwd=cwd, env=env)


def test_the_command_imports_a_users_model_and_the_pass_maps_it(tmp_path):
    (tmp_path / "my_model.py").write_text(textwrap.dedent("""
        import torch

        def build_model():
            return torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1),
                                       torch.nn.ReLU(), torch.nn.Flatten(),
                                       torch.nn.Linear(8 * 6 * 6, 10))
    """))
    out = tmp_path / "model.mlir"
    done = run_command("my_model.py:build_model", "--input", "1,3,6,6",
                       "--target", "eyeriss", "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("// Written by: marlmap-import "
                           "my_model.py:build_model --input 1,3,6,6 "
                           "--target eyeriss\n")
    assert "func.func @build_model" in text
    mapped = marlmap.map_module(text, searcher="random", budget=2, threads=1)
    assert {op["op"] for op in mapped.report["ops"]} >= {
        "linalg.conv_2d_nchw_fchw", "linalg.matmul"}


@pytest.mark.parametrize("args, message", [
    (["torchvision:no_such_model", "--input", "1,3,8,8"],
     "torchvision has no classification model 'no_such_model'"),
    (["missing.py:build", "--input", "1,3"], "no file 'missing.py'"),
    (["resnet18", "--input", "1,3"], "is not torchvision:NAME"),
    (["torchvision:resnet18", "--input", "1,x"], "is not a shape"),
    (["torchvision:resnet18", "--input", "1,4,8,8"], "failed on inputs of "
                                                     "shape [1, 4, 8, 8]"),
])
def test_the_command_says_what_is_wrong(args, message, tmp_path):
    done = run_command(*args, cwd=tmp_path)
    assert done.returncode != 0
    assert message in done.stderr
    assert "Traceback" not in done.stderr

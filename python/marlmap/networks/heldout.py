"""Writes marlmap's held-out networks as linalg on tensors.

Four networks in neither examples/ nor the shared corpus, to check a searcher
on networks it was never trained or tuned on. Published sizes, batch 1,
float32, splat-constant weights, like the example networks (examples.py,
whose builders these extend):
  * googlenet.mlir: GoogLeNet / Inception v1 (Szegedy et al., "Going deeper
    with convolutions", CVPR 2015, Table 1) on a 224x224 image: the stem, all
    nine inception modules, the max pools, the 7x7 average pool and the
    1000-way linear layer; no auxiliary classifiers, no local response norm.
  * densenet121.mlir: DenseNet-121 (Huang et al., "Densely connected
    convolutional networks", CVPR 2017, Table 1) on 224x224: growth rate 32,
    dense blocks of 6, 12, 24 and 16 layers (1x1 conv to 128, 3x3 conv to
    32), transitions halving the channels (1x1 conv, 2x2 average pool).
  * vit_b16.mlir: ViT-B/16 (Dosovitskiy et al., "An image is worth 16x16
    words", ICLR 2021): the patch embedding (16x16 conv, stride 16, 3 to 768
    channels on 224x224), class token and position embedding, and one
    pre-norm encoder layer: sequence 197, hidden 768, 12 heads, MLP 3072.
  * mobilenet_v3_large.mlir: MobileNetV3-Large (Howard et al., "Searching for
    MobileNetV3", ICCV 2019, Table 1) on 224x224: the stem, the 15 bneck
    blocks (squeeze-and-excite to a quarter of the expansion, rounded to a
    multiple of 8 as the reference code does), the head convs and classifier.

Batch norm is folded into a per-channel bias, as inference compilers do.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.networks.heldout \\
        --out benchmarks/heldout
"""

from .examples import BertBuilder
from .linalg import (Function, affine_map, generic, identity, module,
                     named_op, scalar_op, tensor, write_networks)

# What the files' header names as their source.
GENERATOR = "python/marlmap/networks/heldout.py"
ZERO, NEG_INF = "0.000000e+00", "0xFF800000"


# --------------------------------------------------------------------------
# Convolutional networks: ResNet's conv, pad, max pool and head, plus what
# the held-out CNNs add.
# --------------------------------------------------------------------------


class ConvLayers:
    """Pad, convolution with its folded batch-norm bias, max pool and the
    classifier head: the layers every held-out CNN shares."""

    def __init__(self):
        self.fn = Function()
        self.weight_index = 0

    def next_weight_value(self):
        # Distinct small values keep the constants apart in the IR.
        self.weight_index += 1
        return f"{(self.weight_index % 97 + 1) * 1.0e-3:.6e}"

    def pad(self, x, shape, pad, value):
        if pad == 0:
            return x, shape
        n, c, h, w = shape
        padded = [n, c, h + 2 * pad, w + 2 * pad]
        fill = self.fn.scalar(value)
        name = self.fn.fresh("p")
        self.fn.emit(
            f"{name} = tensor.pad {x} low[0, 0, {pad}, {pad}] "
            f"high[0, 0, {pad}, {pad}] {{"
        )
        self.fn.emit("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
        self.fn.emit(f"  tensor.yield {fill} : f32")
        self.fn.emit(f"}} : {tensor(shape)} to {tensor(padded)}")
        return name, padded

    def conv(self, x, shape, out_channels, kernel, stride, pad, relu):
        """Conv (no bias) + folded batch norm bias, then ReLU if asked."""
        fn = self.fn
        n, c, _, _ = shape
        x, (n, c, h, w) = self.pad(x, shape, pad, "0.000000e+00")
        oh = (h - kernel) // stride + 1
        ow = (w - kernel) // stride + 1
        out_shape = [n, out_channels, oh, ow]
        filt_shape = [out_channels, c, kernel, kernel]
        filt = fn.weight(filt_shape, self.next_weight_value())
        init = fn.filled(out_shape, "0.000000e+00")
        conv = named_op(fn, "conv_2d_nchw_fchw",
                        [(x, [n, c, h, w]), (filt, filt_shape)], init,
                        out_shape, stride)
        bias = fn.weight([out_channels], self.next_weight_value())
        zero = fn.scalar("0.000000e+00")

        def body(value, b, _acc):
            s = fn.fresh("s")
            lines = [scalar_op("addf", value, b, s)]
            if not relu:
                return lines, s
            r = fn.fresh("r")
            lines.append(scalar_op("maximumf", s, zero, r))
            return lines, r

        out = generic(
            fn,
            [(conv, out_shape, identity(4)),
             (bias, [out_channels], affine_map(4, ["d1"]))],
            out_shape,
            body,
        )
        return out, out_shape

    def max_pool(self, x, shape):
        fn = self.fn
        x, (n, c, h, w) = self.pad(x, shape, 1, "0xFF800000")
        out_shape = [n, c, (h - 3) // 2 + 1, (w - 3) // 2 + 1]
        window = fn.empty([3, 3])
        init = fn.filled(out_shape, "0xFF800000")
        out = named_op(fn, "pooling_nchw_max",
                       [(x, [n, c, h, w]), (window, [3, 3])], init, out_shape,
                       2)
        return out, out_shape

    def head(self, x, shape):
        """Global average pool, flatten, fully connected to 1000 classes."""
        fn = self.fn
        n, c, h, w = shape
        pooled_shape = [n, c, 1, 1]
        window = fn.empty([h, w])
        init = fn.filled(pooled_shape, "0.000000e+00")
        pooled = named_op(fn, "pooling_nchw_sum",
                          [(x, shape), (window, [h, w])], init, pooled_shape,
                          1)
        scale = fn.scalar(f"{1.0 / (h * w):.6e}")

        def mean(v, _acc):
            m = fn.fresh("m")
            return [scalar_op("mulf", v, scale, m)], m

        averaged = generic(fn, [(pooled, pooled_shape, identity(4))],
                           pooled_shape, mean)
        flat = fn.fresh()
        fn.emit(
            f"{flat} = tensor.collapse_shape {averaged} [[0], [1, 2, 3]] : "
            f"{tensor(pooled_shape)} into {tensor([n, c])}"
        )
        fc = fn.weight([c, 1000], self.next_weight_value())
        init = fn.filled([n, 1000], "0.000000e+00")
        logits = named_op(fn, "matmul", [(flat, [n, c]), (fc, [c, 1000])],
                          init, [n, 1000])
        bias = fn.weight([1000], self.next_weight_value())

        def add(v, b, _acc):
            s = fn.fresh("s")
            return [scalar_op("addf", v, b, s)], s

        return generic(
            fn,
            [(logits, [n, 1000], identity(2)),
             (bias, [1000], affine_map(2, ["d1"]))],
            [n, 1000],
            add,
        )


class ConvNetBuilder(ConvLayers):
    def conv_op(self, x, shape, out_channels, kernel, stride, pad,
                depthwise=False):
        """A convolution alone, without the bias generic conv() adds (a
        depthwise one keeps the channels: one filter each)."""
        fn = self.fn
        x, (n, c, h, w) = self.pad(x, shape, pad, ZERO)
        out_channels = c if depthwise else out_channels
        out_shape = [n, out_channels, (h - kernel) // stride + 1,
                     (w - kernel) // stride + 1]
        filt_shape = ([c, kernel, kernel] if depthwise
                      else [out_channels, c, kernel, kernel])
        op = ("depthwise_conv_2d_nchw_chw" if depthwise
              else "conv_2d_nchw_fchw")
        filt = fn.weight(filt_shape, self.next_weight_value())
        init = fn.filled(out_shape, ZERO)
        out = named_op(fn, op, [(x, [n, c, h, w]), (filt, filt_shape)], init,
                       out_shape, stride)
        return out, out_shape

    def activation(self, act, value):
        """Lines and result of `act` (None, relu, hswish or hsigmoid)."""
        fn = self.fn
        if act is None:
            return [], value
        zero = fn.scalar(ZERO)
        if act == "relu":
            r = fn.fresh("r")
            return [scalar_op("maximumf", value, zero, r)], r
        # Hard sigmoid: relu6(x + 3) / 6; hard swish multiplies it by x.
        three, six = fn.scalar("3.000000e+00"), fn.scalar("6.000000e+00")
        sixth = fn.scalar(f"{1 / 6:.6e}")
        t, u, v, s = (fn.fresh("h") for _ in range(4))
        lines = [scalar_op("addf", value, three, t),
                 scalar_op("maximumf", t, zero, u),
                 scalar_op("minimumf", u, six, v),
                 scalar_op("mulf", v, sixth, s)]
        if act == "hsigmoid":
            return lines, s
        o = fn.fresh("h")
        return lines + [scalar_op("mulf", value, s, o)], o

    def bias_act(self, x, shape, act):
        """Adds a per-channel bias (dim 1: a folded batch norm or a layer's
        own bias), then `act`."""
        fn = self.fn
        rank, channels = len(shape), shape[1]
        bias = fn.weight([channels], self.next_weight_value())

        def body(v, b, _acc):
            s = fn.fresh("s")
            lines, out = self.activation(act, s)
            return [scalar_op("addf", v, b, s)] + lines, out

        return generic(fn, [(x, shape, identity(rank)),
                            (bias, [channels], affine_map(rank, ["d1"]))],
                       shape, body)

    def pool(self, x, shape, kind, kernel, stride, pad=0):
        """A square max or average ("max", "avg") pool; the average is a sum
        pool scaled by the window, as ResNet's head does it."""
        fn = self.fn
        init_value = NEG_INF if kind == "max" else ZERO
        x, (n, c, h, w) = self.pad(x, shape, pad, init_value)
        out_shape = [n, c, (h - kernel) // stride + 1,
                     (w - kernel) // stride + 1]
        window = fn.empty([kernel, kernel])
        init = fn.filled(out_shape, init_value)
        out = named_op(fn, f"pooling_nchw_{'max' if kind == 'max' else 'sum'}",
                       [(x, [n, c, h, w]), (window, [kernel, kernel])], init,
                       out_shape, stride)
        if kind == "max":
            return out, out_shape
        scale = fn.scalar(f"{1.0 / (kernel * kernel):.6e}")

        def mean(v, _acc):
            m = fn.fresh("m")
            return [scalar_op("mulf", v, scale, m)], m

        return generic(fn, [(out, out_shape, identity(4))], out_shape,
                       mean), out_shape

    def concat(self, parts, dim=1):
        """Joins (value, shape) pairs along `dim` (channels by default)."""
        shape = list(parts[0][1])
        shape[dim] = sum(s[dim] for _, s in parts)
        out = self.fn.fresh()
        self.fn.emit(
            f"{out} = tensor.concat dim({dim}) "
            f"{', '.join(v for v, _ in parts)} : "
            f"({', '.join(tensor(s) for _, s in parts)}) -> {tensor(shape)}"
        )
        return out, shape

    def add(self, a, b, shape):
        fn = self.fn

        def body(x, y, _acc):
            s = fn.fresh("s")
            return [scalar_op("addf", x, y, s)], s

        rank = len(shape)
        return generic(fn, [(a, shape, identity(rank)),
                            (b, shape, identity(rank))], shape, body)

    def flatten(self, x, shape):
        """[N, C, 1, 1] -> [N, C]."""
        n, c, _, _ = shape
        out = self.fn.fresh()
        self.fn.emit(
            f"{out} = tensor.collapse_shape {x} [[0], [1, 2, 3]] : "
            f"{tensor(shape)} into {tensor([n, c])}"
        )
        return out, [n, c]

    def linear(self, x, shape, out_features, act):
        """x[N, in] * W[in, out] + b, then `act`."""
        fn = self.fn
        n, in_features = shape
        out_shape = [n, out_features]
        w = fn.weight([in_features, out_features], self.next_weight_value())
        init = fn.filled(out_shape, ZERO)
        out = named_op(fn, "matmul",
                       [(x, shape), (w, [in_features, out_features])], init,
                       out_shape)
        return self.bias_act(out, out_shape, act), out_shape

    def finish(self, logits, summary, name):
        self.fn.emit(f"return {logits} : {tensor([1, 1000])}")
        return module(summary, name, [f"%image: {tensor([1, 3, 224, 224])}"],
                      tensor([1, 1000]), self.fn, GENERATOR)


# --------------------------------------------------------------------------
# GoogLeNet
# --------------------------------------------------------------------------


class GoogLeNetBuilder(ConvNetBuilder):
    # Table 1: #1x1, #3x3 reduce, #3x3, #5x5 reduce, #5x5, pool proj.
    INCEPTION = {
        "3a": (64, 96, 128, 16, 32, 32), "3b": (128, 128, 192, 32, 96, 64),
        "4a": (192, 96, 208, 16, 48, 64), "4b": (160, 112, 224, 24, 64, 64),
        "4c": (128, 128, 256, 24, 64, 64), "4d": (112, 144, 288, 32, 64, 64),
        "4e": (256, 160, 320, 32, 128, 128),
        "5a": (256, 160, 320, 32, 128, 128),
        "5b": (384, 192, 384, 48, 128, 128),
    }

    def inception(self, x, shape, c1, r3, c3, r5, c5, proj):
        one, s1 = self.conv(x, shape, c1, 1, 1, 0, True)
        three, s3 = self.conv(x, shape, r3, 1, 1, 0, True)
        three, s3 = self.conv(three, s3, c3, 3, 1, 1, True)
        five, s5 = self.conv(x, shape, r5, 1, 1, 0, True)
        five, s5 = self.conv(five, s5, c5, 5, 1, 2, True)
        pooled, sp = self.pool(x, shape, "max", 3, 1, 1)
        pooled, sp = self.conv(pooled, sp, proj, 1, 1, 0, True)
        return self.concat([(one, s1), (three, s3), (five, s5), (pooled, sp)])

    def build(self):
        x, shape = self.conv("%image", [1, 3, 224, 224], 64, 7, 2, 3, True)
        x, shape = self.max_pool(x, shape)  # 3x3 stride 2: 112 -> 56
        x, shape = self.conv(x, shape, 64, 1, 1, 0, True)
        x, shape = self.conv(x, shape, 192, 3, 1, 1, True)
        x, shape = self.max_pool(x, shape)
        for name, channels in self.INCEPTION.items():
            if name in ("4a", "5a"):  # a max pool between the stages
                x, shape = self.max_pool(x, shape)
            x, shape = self.inception(x, shape, *channels)
        return self.finish(
            self.head(x, shape),
            "GoogLeNet (Inception v1) at 224x224, batch 1: 57 convolutions "
            "and the classifier.", "googlenet")


# --------------------------------------------------------------------------
# DenseNet-121
# --------------------------------------------------------------------------


class DenseNetBuilder(ConvNetBuilder):
    GROWTH, BOTTLENECK, BLOCKS = 32, 128, (6, 12, 24, 16)

    # DenseNet normalises before each conv (BN, ReLU, conv). A batch norm
    # right after a conv folds into that conv's bias (conv() with relu); one
    # on a concatenation stays a per-channel bias and ReLU of its own.

    def dense_layer(self, x, shape):
        y = self.bias_act(x, shape, "relu")
        y, s = self.conv(y, shape, self.BOTTLENECK, 1, 1, 0, True)
        y, s = self.conv_op(y, s, self.GROWTH, 3, 1, 1)
        return self.concat([(x, shape), (y, s)])

    def transition(self, x, shape):
        y = self.bias_act(x, shape, "relu")
        y, s = self.conv_op(y, shape, shape[1] // 2, 1, 1, 0)
        return self.pool(y, s, "avg", 2, 2)

    def build(self):
        x, shape = self.conv("%image", [1, 3, 224, 224], 64, 7, 2, 3, True)
        x, shape = self.max_pool(x, shape)
        for block, layers in enumerate(self.BLOCKS):
            if block:
                x, shape = self.transition(x, shape)
            for _ in range(layers):
                x, shape = self.dense_layer(x, shape)
        x = self.bias_act(x, shape, "relu")  # the final batch norm
        return self.finish(
            self.head(x, shape),
            "DenseNet-121 at 224x224, batch 1: 120 convolutions and the "
            "classifier.", "densenet121")


# --------------------------------------------------------------------------
# ViT-B/16
# --------------------------------------------------------------------------


class ViTBuilder(BertBuilder):
    # ViT-B's encoder is BERT-base's at 196 patches plus the class token.
    SEQ, PATCH, IMAGE = 197, 16, 224

    def embed(self):
        """Patches through a 16x16 stride-16 conv, as a [196, 768] sequence,
        behind the class token, plus the position embedding."""
        fn, hidden = self.fn, self.HIDDEN
        convs = ConvNetBuilder()
        convs.fn = fn
        x, (_, _, h, w) = convs.conv("%image", [1, 3, self.IMAGE, self.IMAGE],
                                     hidden, self.PATCH, self.PATCH, 0, False)
        patches = h * w
        flat = fn.fresh()
        fn.emit(
            f"{flat} = tensor.collapse_shape {x} [[0, 1], [2, 3]] : "
            f"{tensor([1, hidden, h, w])} into {tensor([hidden, patches])}"
        )
        init = fn.empty([patches, hidden])
        tokens = fn.fresh()
        fn.emit(
            f"{tokens} = linalg.transpose ins({flat} : "
            f"{tensor([hidden, patches])}) outs({init} : "
            f"{tensor([patches, hidden])}) permutation = [1, 0]"
        )
        cls = fn.weight([1, hidden], "7.000000e-02")
        x, shape = convs.concat([(cls, [1, hidden]),
                                 (tokens, [patches, hidden])], dim=0)
        position = fn.weight(shape, "8.000000e-02")
        return self.add(x, position, shape)

    def build(self):
        seq, hidden = self.SEQ, self.HIDDEN
        shape = [seq, hidden]
        x = self.embed()
        # Pre-norm, unlike BERT: x + attention(LN(x)), then x + MLP(LN(x)).
        x = self.add(self.attention(self.layer_norm(x)), x, shape)
        up = self.gelu(self.linear(self.layer_norm(x), hidden, self.FFN,
                                   "5.000000e-02"), [seq, self.FFN])
        out = self.add(self.linear(up, self.FFN, hidden, "6.000000e-02"), x,
                       shape)
        self.fn.emit(f"return {out} : {tensor(shape)}")
        return module(
            "ViT-B/16 at 224x224, batch 1: the patch embedding and one "
            "encoder layer (sequence 197, hidden 768, 12 heads, MLP 3072).",
            "vit_b16",
            [f"%image: {tensor([1, 3, self.IMAGE, self.IMAGE])}"],
            tensor(shape),
            self.fn,
            GENERATOR,
        )


# --------------------------------------------------------------------------
# MobileNetV3-Large
# --------------------------------------------------------------------------


def make_divisible(value, divisor=8):
    """The reference code's rounding of channel counts to multiples of 8."""
    rounded = max(divisor, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


class MobileNetV3Builder(ConvNetBuilder):
    # Table 1: kernel, expansion size, output channels, squeeze-and-excite,
    # activation (RE: ReLU, HS: hard swish), stride.
    BNECK = [
        (3, 16, 16, False, "relu", 1), (3, 64, 24, False, "relu", 2),
        (3, 72, 24, False, "relu", 1), (5, 72, 40, True, "relu", 2),
        (5, 120, 40, True, "relu", 1), (5, 120, 40, True, "relu", 1),
        (3, 240, 80, False, "hswish", 2), (3, 200, 80, False, "hswish", 1),
        (3, 184, 80, False, "hswish", 1), (3, 184, 80, False, "hswish", 1),
        (3, 480, 112, True, "hswish", 1), (3, 672, 112, True, "hswish", 1),
        (5, 672, 160, True, "hswish", 2), (5, 960, 160, True, "hswish", 1),
        (5, 960, 160, True, "hswish", 1),
    ]

    def conv_bn(self, x, shape, out_channels, kernel, stride, act,
                depthwise=False):
        x, shape = self.conv_op(x, shape, out_channels, kernel, stride,
                                kernel // 2, depthwise)
        return self.bias_act(x, shape, act), shape

    def squeeze_excite(self, x, shape):
        """Global average pool, 1x1 convs down to a quarter and back, and the
        channels scaled by the hard-sigmoid result."""
        fn = self.fn
        _, c, h, _ = shape  # batch 1: [1, C, 1, 1] collapses to [C]
        s, ss = self.pool(x, shape, "avg", h, 1)
        s, ss = self.conv_bn(s, ss, make_divisible(c // 4), 1, 1, "relu")
        s, ss = self.conv_bn(s, ss, c, 1, 1, "hsigmoid")
        flat = fn.fresh()
        fn.emit(
            f"{flat} = tensor.collapse_shape {s} [[0, 1, 2, 3]] : "
            f"{tensor(ss)} into {tensor([c])}"
        )

        def body(v, g, _acc):
            m = fn.fresh("m")
            return [scalar_op("mulf", v, g, m)], m

        return generic(fn, [(x, shape, identity(4)),
                            (flat, [c], affine_map(4, ["d1"]))], shape, body)

    def bneck(self, x, shape, kernel, expansion, out_channels, se, act,
              stride):
        y, s = x, shape
        if expansion != shape[1]:  # the first block has no expansion conv
            y, s = self.conv_bn(y, s, expansion, 1, 1, act)
        y, s = self.conv_bn(y, s, expansion, kernel, stride, act, True)
        if se:
            y = self.squeeze_excite(y, s)
        y, s = self.conv_bn(y, s, out_channels, 1, 1, None)
        if stride == 1 and shape[1] == out_channels:
            y = self.add(y, x, s)
        return y, s

    def build(self):
        x, shape = self.conv_bn("%image", [1, 3, 224, 224], 16, 3, 2,
                                "hswish")
        for block in self.BNECK:
            x, shape = self.bneck(x, shape, *block)
        x, shape = self.conv_bn(x, shape, 960, 1, 1, "hswish")
        x, shape = self.pool(x, shape, "avg", shape[2], 1)
        # The two 1x1 convs on the pooled 1x1 map (no batch norm) are
        # linear layers, as in the reference code.
        x, shape = self.linear(*self.flatten(x, shape), 1280, "hswish")
        logits, _ = self.linear(x, shape, 1000, None)
        return self.finish(
            logits,
            "MobileNetV3-Large at 224x224, batch 1: the stem, 15 bneck blocks, "
            "the head and the classifier.", "mobilenet_v3_large")


NETWORKS = {
    "googlenet.mlir": lambda: GoogLeNetBuilder().build(),
    "densenet121.mlir": lambda: DenseNetBuilder().build(),
    "vit_b16.mlir": lambda: ViTBuilder().build(),
    "mobilenet_v3_large.mlir": lambda: MobileNetV3Builder().build(),
}


def main():
    write_networks(NETWORKS, __doc__)


if __name__ == "__main__":
    main()

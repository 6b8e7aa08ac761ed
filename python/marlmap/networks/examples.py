"""Writes marlmap's BERT example as linalg on tensors.

examples/resnet50.mlir is imported from torchvision (`marlmap-import
torchvision:resnet50 --input 1,3,224,224`, its first line says so);
torchvision has no BERT, so this one is written here from the published
sizes, batch 1, float32:
  * bert_base_encoder.mlir: one BERT-base encoder layer (Devlin et al. 2019):
    hidden 768, 12 heads of 64, feed-forward 3072, sequence length 512.

Weights are splat constants: the values do not matter to a mapper, the shapes
do. The output is deterministic, so the file in examples/ can be checked
against a fresh run (see test/Examples).

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.networks.examples \\
        --out examples
"""

from .linalg import (Function, affine_map, generic, identity, module,
                     named_op, scalar_op, tensor, write_networks)

# What the files' header names as their source.
GENERATOR = "python/marlmap/networks/examples.py"


# --------------------------------------------------------------------------
# BERT-base encoder layer
# --------------------------------------------------------------------------


class BertBuilder:
    SEQ, HIDDEN, HEADS, FFN = 512, 768, 12, 3072

    def __init__(self):
        self.fn = Function()

    def linear(self, x, in_features, out_features, value):
        """x[SEQ, in] * W[in, out] + b."""
        fn = self.fn
        w = fn.weight([in_features, out_features], value)
        init = fn.filled([self.SEQ, out_features], "0.000000e+00")
        out = named_op(fn, "matmul", [(x, [self.SEQ, in_features]),
                                      (w, [in_features, out_features])],
                       init, [self.SEQ, out_features])
        b = fn.weight([out_features], value)

        def add(v, bias, _acc):
            s = fn.fresh("s")
            return [scalar_op("addf", v, bias, s)], s

        shape = [self.SEQ, out_features]
        return generic(fn, [(out, shape, identity(2)),
                            (b, [out_features], affine_map(2, ["d1"]))],
                       shape, add)

    def split_heads(self, x, transpose_keys=False):
        """[SEQ, HIDDEN] -> [HEADS, SEQ, 64] (or [HEADS, 64, SEQ] for keys)."""
        fn = self.fn
        head_dim = self.HIDDEN // self.HEADS
        split = [self.SEQ, self.HEADS, head_dim]
        expanded = fn.fresh()
        fn.emit(
            f"{expanded} = tensor.expand_shape {x} [[0], [1, 2]] "
            f"output_shape [{self.SEQ}, {self.HEADS}, {head_dim}] : "
            f"{tensor([self.SEQ, self.HIDDEN])} into {tensor(split)}"
        )
        perm = [1, 2, 0] if transpose_keys else [1, 0, 2]
        out_shape = [split[p] for p in perm]
        init = fn.empty(out_shape)
        out = fn.fresh()
        fn.emit(
            f"{out} = linalg.transpose ins({expanded} : {tensor(split)}) "
            f"outs({init} : {tensor(out_shape)}) permutation = "
            f"[{', '.join(map(str, perm))}]"
        )
        return out

    def batch_matmul(self, a, a_shape, b, b_shape):
        fn = self.fn
        out_shape = [a_shape[0], a_shape[1], b_shape[2]]
        init = fn.filled(out_shape, "0.000000e+00")
        out = named_op(fn, "batch_matmul", [(a, a_shape), (b, b_shape)],
                       init, out_shape)
        return out, out_shape

    def softmax(self, x, shape):
        """Row softmax over the last dim, max-subtracted for stability."""
        fn = self.fn
        rows = shape[:2]
        row_max_init = fn.filled(rows, "0xFF800000")
        row_max = fn.fresh()
        a, acc = fn.fresh("a"), fn.fresh("acc")
        m = fn.fresh("m")
        fn.emit(
            f"{row_max} = linalg.reduce ins({x} : {tensor(shape)}) "
            f"outs({row_max_init} : {tensor(rows)}) dimensions = [2]"
        )
        fn.emit(f"  ({a}: f32, {acc}: f32) {{")
        fn.emit(f"    {scalar_op('maximumf', a, acc, m)}")
        fn.emit(f"    linalg.yield {m} : f32")
        fn.emit("  }")

        def exp_shifted(v, mx, _acc):
            d, e = fn.fresh("d"), fn.fresh("e")
            return [scalar_op("subf", v, mx, d),
                    f"{e} = math.exp {d} : f32"], e

        row_map = affine_map(3, ["d0", "d1"])
        exps = generic(fn, [(x, shape, identity(3)), (row_max, rows, row_map)],
                       shape, exp_shifted)

        def accumulate(v, total):
            s = fn.fresh("s")
            return [scalar_op("addf", v, total, s)], s

        sums = generic(fn, [(exps, shape, identity(3))], rows, accumulate,
                       maps=row_map,
                       iterators=["parallel", "parallel", "reduction"],
                       init=fn.filled(rows, "0.000000e+00"))

        def normalize(v, total, _acc):
            q = fn.fresh("q")
            return [scalar_op("divf", v, total, q)], q

        return generic(fn, [(exps, shape, identity(3)), (sums, rows, row_map)],
                       shape, normalize)

    def add(self, a, b, shape):
        fn = self.fn

        def body(x, y, _acc):
            s = fn.fresh("s")
            return [scalar_op("addf", x, y, s)], s

        return generic(fn, [(a, shape, identity(2)), (b, shape, identity(2))],
                       shape, body)

    def layer_norm(self, x):
        fn = self.fn
        shape, rows = [self.SEQ, self.HIDDEN], [self.SEQ]
        row_map = affine_map(2, ["d0"])
        inv_n = fn.scalar(f"{1.0 / self.HIDDEN:.6e}")
        eps = fn.scalar("9.999999e-13")

        def accumulate(v, total):
            s = fn.fresh("s")
            return [scalar_op("addf", v, total, s)], s

        def accumulate_square(v, mu, total):
            d, sq, s = fn.fresh("d"), fn.fresh("q"), fn.fresh("s")
            return [scalar_op("subf", v, mu, d), scalar_op("mulf", d, d, sq),
                    scalar_op("addf", sq, total, s)], s

        def scaled(v, _acc):
            m = fn.fresh("m")
            return [scalar_op("mulf", v, inv_n, m)], m

        reduction = ["parallel", "reduction"]
        total = generic(fn, [(x, shape, identity(2))], rows, accumulate,
                        maps=row_map, iterators=reduction,
                        init=fn.filled(rows, "0.000000e+00"))
        mean = generic(fn, [(total, rows, identity(1))], rows, scaled)
        squares = generic(fn, [(x, shape, identity(2)),
                               (mean, rows, row_map)], rows,
                          accumulate_square, maps=row_map,
                          iterators=reduction,
                          init=fn.filled(rows, "0.000000e+00"))
        variance = generic(fn, [(squares, rows, identity(1))], rows, scaled)
        gamma = fn.weight([self.HIDDEN], "1.000000e+00")
        beta = fn.weight([self.HIDDEN], "0.000000e+00")

        def normalize(v, mu, var, g, b, _acc):
            d, ve, r, n, sc, o = (fn.fresh(h) for h in "dvrnso")
            return [scalar_op("subf", v, mu, d), scalar_op("addf", var, eps, ve),
                    f"{r} = math.rsqrt {ve} : f32",
                    scalar_op("mulf", d, r, n), scalar_op("mulf", n, g, sc),
                    scalar_op("addf", sc, b, o)], o

        channel = affine_map(2, ["d1"])
        return generic(fn, [(x, shape, identity(2)), (mean, rows, row_map),
                            (variance, rows, row_map),
                            (gamma, [self.HIDDEN], channel),
                            (beta, [self.HIDDEN], channel)], shape, normalize)

    def gelu(self, x, shape):
        """GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
        fn = self.fn
        half, one = fn.scalar("5.000000e-01"), fn.scalar("1.000000e+00")
        k, c = fn.scalar("7.978846e-01"), fn.scalar("4.471500e-02")

        def body(v, _acc):
            x2, x3, cx3, inner, scaled, t, onep, hx, out = (
                fn.fresh("g") for _ in range(9))
            return [scalar_op("mulf", v, v, x2), scalar_op("mulf", x2, v, x3),
                    scalar_op("mulf", x3, c, cx3),
                    scalar_op("addf", v, cx3, inner),
                    scalar_op("mulf", inner, k, scaled),
                    f"{t} = math.tanh {scaled} : f32",
                    scalar_op("addf", t, one, onep),
                    scalar_op("mulf", v, half, hx),
                    scalar_op("mulf", hx, onep, out)], out

        return generic(fn, [(x, shape, identity(2))], shape, body)

    def attention(self, x):
        """Multi-head self-attention on `x` with its output projection."""
        fn = self.fn
        seq, hidden, heads = self.SEQ, self.HIDDEN, self.HEADS
        head_dim = hidden // heads
        q = self.split_heads(self.linear(x, hidden, hidden, "1.000000e-02"))
        k = self.split_heads(self.linear(x, hidden, hidden, "2.000000e-02"),
                             transpose_keys=True)
        v = self.split_heads(self.linear(x, hidden, hidden, "3.000000e-02"))
        scores, score_shape = self.batch_matmul(
            q, [heads, seq, head_dim], k, [heads, head_dim, seq])
        scale = fn.scalar(f"{1.0 / head_dim ** 0.5:.6e}")

        def scaled(s, _acc):
            m = fn.fresh("m")
            return [scalar_op("mulf", s, scale, m)], m

        scores = generic(fn, [(scores, score_shape, identity(3))], score_shape,
                         scaled)
        probs = self.softmax(scores, score_shape)
        context, ctx_shape = self.batch_matmul(
            probs, score_shape, v, [heads, seq, head_dim])
        merged_shape = [seq, heads, head_dim]
        merged_init = fn.empty(merged_shape)
        merged = fn.fresh()
        fn.emit(
            f"{merged} = linalg.transpose ins({context} : {tensor(ctx_shape)}) "
            f"outs({merged_init} : {tensor(merged_shape)}) permutation = "
            "[1, 0, 2]"
        )
        flat = fn.fresh()
        fn.emit(
            f"{flat} = tensor.collapse_shape {merged} [[0], [1, 2]] : "
            f"{tensor(merged_shape)} into {tensor([seq, hidden])}"
        )
        return self.linear(flat, hidden, hidden, "4.000000e-02")

    def build(self):
        fn = self.fn
        seq, hidden = self.SEQ, self.HIDDEN
        x = "%hidden"
        attention = self.attention(x)
        x1 = self.layer_norm(self.add(attention, x, [seq, hidden]))
        up = self.gelu(self.linear(x1, hidden, self.FFN, "5.000000e-02"),
                       [seq, self.FFN])
        down = self.linear(up, self.FFN, hidden, "6.000000e-02")
        out = self.layer_norm(self.add(down, x1, [seq, hidden]))
        fn.emit(f"return {out} : {tensor([seq, hidden])}")
        return module(
            "One BERT-base encoder layer: hidden 768, 12 heads, feed-forward "
            "3072, sequence 512, batch 1.",
            "bert_base_encoder",
            [f"%hidden: {tensor([seq, hidden])}"],
            tensor([seq, hidden]),
            fn,
            GENERATOR,
        )


NETWORKS = {
    "bert_base_encoder.mlir": lambda: BertBuilder().build(),
}


def main():
    write_networks(NETWORKS, __doc__)


if __name__ == "__main__":
    main()

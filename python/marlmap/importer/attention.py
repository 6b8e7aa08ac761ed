"""PyTorch's fused attention (`aten._native_multi_head_attention`, what
nn.MultiheadAttention calls in eval mode) written as what it computes: the
input projections as matmuls, the per-head products as batch matmuls, the
softmax between them, and the output projection."""

import math

from .lowering import handles


@handles("aten._native_multi_head_attention.default")
def _multi_head_attention(lower, query, key, value, embed_dim, num_heads,
                          qkv_weight, qkv_bias, proj_weight, proj_bias,
                          mask=None, need_weights=True,
                          average_attn_weights=True, mask_type=None):
    if mask is not None:
        lower.refuse("attention with a mask")
    b, where = lower.builder, lower.where()
    query, key, value = (lower.tensor(t) for t in (query, key, value))
    if len(query.shape) != 3:
        lower.refuse("attention on a query that is not batch x sequence x "
                     "embedding")
    batch, length, width = query.shape
    source_length = key.shape[1]
    head = embed_dim // num_heads
    weight, bias = lower.tensor(qkv_weight), lower.tensor(qkv_bias)

    def project(x, rows, part):
        """x's rows through the part-th third of the input projection,
        as per-head batches: (batch x heads) x rows x head."""
        flat = b.reshape(where, x, [batch * rows, width])
        weights = b.slice(where, weight, 0, part * embed_dim,
                          (part + 1) * embed_dim, 1)
        biases = b.slice(where, bias, 0, part * embed_dim,
                         (part + 1) * embed_dim, 1)
        projected = b.elementwise(where, "add", [
            b.matmul(where, flat, weights, True), biases])
        heads = b.permute(where, b.reshape(
            where, projected, [batch, rows, num_heads, head]), [0, 2, 1, 3])
        return b.reshape(where, heads, [batch * num_heads, rows, head])

    q = b.elementwise(where, "mul", [project(query, length, 0),
                                     1.0 / math.sqrt(head)])
    k = project(key, source_length, 1)
    v = project(value, source_length, 2)
    scores = b.matmul(where, q, k, True)
    peak = b.reduce(where, "max", scores, [2], True)
    exps = b.elementwise(where, "exp",
                         [b.elementwise(where, "sub", [scores, peak])])
    attention = b.elementwise(where, "div", [
        exps, b.reduce(where, "sum", exps, [2], True)])
    context = b.matmul(where, attention, v, False)
    merged = b.reshape(where, b.permute(where, b.reshape(
        where, context, [batch, num_heads, length, head]), [0, 2, 1, 3]),
        [batch * length, embed_dim])
    out = b.elementwise(where, "add", [
        b.matmul(where, merged, lower.tensor(proj_weight), True),
        lower.tensor(proj_bias)])
    out = b.reshape(where, out, [batch, length, embed_dim])
    if need_weights:
        lower.refuse("attention asked for its weights")
    return out, None

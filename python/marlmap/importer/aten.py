"""How each ATen operation becomes linalg: one handler per operation.

Compute goes to named linalg ops where linalg has them (convolutions,
matmuls, pooling) and to generics for the rest (elementwise ops,
reductions, normalisations, softmax); shape changes to tensor ops. The
operations that compute nothing (views, copies, aliases) pass their input
on; docs/Limits.md lists them.
"""

import math
import sys

import torch

from .lowering import Transposed, handles

_INT64_MAX = sys.maxsize


def _dim(dim, rank):
    return dim + rank if dim < 0 else dim


def _pair(values):
    values = list(values)
    return values * 2 if len(values) == 1 else values


# --- Nothing computed -------------------------------------------------------

@handles("aten.clone.default", "aten.alias.default", "aten.detach.default",
         "aten.lift_fresh_copy.default", "aten.contiguous.default",
         "aten.dropout.default")
def _same(lower, x, *args, **kwargs):
    return x


@handles("aten.empty.memory_format", "aten.new_empty.default")
def _empty(lower, *args, **kwargs):
    # Uninitialised: only what computes nothing may read it (batch norm's
    # saved statistics in eval mode).
    return None


def _resolved(shape, size):
    """`size` with its -1 (if any) worked out from `shape`'s elements."""
    size = list(size)
    if -1 in size:
        known = math.prod(d for d in size if d != -1)
        size[size.index(-1)] = math.prod(shape) // known if known else 0
    return size


@handles("aten.new_zeros.default", "aten.new_ones.default",
         "aten.new_full.default", "aten.zeros_like.default",
         "aten.ones_like.default", "aten.full_like.default")
def _filled(lower, x, *args, **kwargs):
    # A constant: the network's tensor gives it only its dtype (and, for
    # the *_like ops, its shape).
    name = lower.node.target.__name__.split(".")[0]
    if not name.endswith("_like"):  # new_*(x, size, ...)
        size, args = list(args[0]), args[1:]
    else:
        size = list(x.shape)
    fill = {"zeros": 0.0, "ones": 1.0}.get(
        name.replace("new_", "").replace("_like", ""))
    return torch.full(size, float(args[0] if fill is None else fill))


@handles("aten.view.default", "aten._reshape_alias.default",
         "aten._unsafe_view.default", "aten.reshape.default",
         "aten.view_copy.default", "aten._reshape_alias_copy.default")
def _reshape(lower, x, size, *args):
    x = lower.tensor(x)
    return lower.builder.reshape(lower.where(), x, _resolved(x.shape, size))


@handles("aten.unsqueeze.default", "aten.unsqueeze_copy.default")
def _unsqueeze(lower, x, dim):
    x = lower.tensor(x)
    shape = list(x.shape)
    shape.insert(_dim(dim, len(shape) + 1), 1)
    return lower.builder.reshape(lower.where(), x, shape)


@handles("aten.squeeze.dim", "aten.squeeze.default",
         "aten.squeeze_copy.dim", "aten.squeeze_copy.default")
def _squeeze(lower, x, dim=None):
    x = lower.tensor(x)
    shape = list(x.shape)
    if dim is None:
        shape = [d for d in shape if d != 1]
    elif shape[_dim(dim, len(shape))] == 1:
        del shape[_dim(dim, len(shape))]
    return lower.builder.reshape(lower.where(), x, shape)


@handles("aten.flatten.using_ints")
def _flatten(lower, x, start=0, end=-1):
    x = lower.tensor(x)
    rank = len(x.shape)
    start, end = _dim(start, rank), _dim(end, rank)
    shape = list(x.shape[:start]) + [math.prod(x.shape[start:end + 1])] + \
        list(x.shape[end + 1:])
    return lower.builder.reshape(lower.where(), x, shape)


def _is_contiguous(shape, stride):
    """Whether `stride` walks `shape` in row-major order (the strides of
    dims of one element do not matter)."""
    expected = 1
    for extent, step in reversed(list(zip(shape, stride))):
        if extent != 1 and step != expected:
            return False
        expected *= extent
    return True


@handles("aten.as_strided.default", "aten.as_strided_copy.default")
def _as_strided(lower, x, size, stride, offset=None):
    # A reshape when it reads a contiguous input in order.
    source = lower.node.args[0].meta.get("tensor_meta")
    if source is None or (offset or 0) or \
            math.prod(size) != math.prod(source.shape) or \
            not _is_contiguous(size, stride) or \
            not _is_contiguous(source.shape, source.stride):
        lower.refuse("an as_strided view that is not a reshape of a "
                     "contiguous tensor")
    return lower.builder.reshape(lower.where(), lower.tensor(x), list(size))


@handles("aten.t.default", "aten.t_copy.default")
def _t(lower, x):
    if isinstance(x, Transposed):
        return x.value
    x = lower.tensor(x)
    if len(x.shape) != 2:
        return x
    return Transposed(x)


@handles("aten.transpose.int", "aten.transpose_copy.int")
def _transpose(lower, x, dim0, dim1):
    x = lower.tensor(x)
    rank = len(x.shape)
    order = list(range(rank))
    a, b = _dim(dim0, rank), _dim(dim1, rank)
    order[a], order[b] = order[b], order[a]
    return lower.builder.permute(lower.where(), x, order)


@handles("aten.permute.default", "aten.permute_copy.default")
def _permute(lower, x, dims):
    x = lower.tensor(x)
    rank = len(x.shape)
    return lower.builder.permute(lower.where(), x,
                                 [_dim(d, rank) for d in dims])


@handles("aten.expand.default", "aten.expand_copy.default")
def _expand(lower, x, size, implicit=False):
    x = lower.tensor(x)
    lead = len(size) - len(x.shape)
    shape = [x.shape[d - lead] if extent == -1 else extent
             for d, extent in enumerate(size)]
    return lower.builder.broadcast(lower.where(), x, shape)


@handles("aten.slice.Tensor", "aten.slice_copy.Tensor")
def _slice(lower, x, dim=0, start=None, end=None, step=1):
    x = lower.tensor(x)
    dim = _dim(dim, len(x.shape))
    extent = x.shape[dim]
    start = 0 if start is None else start
    end = extent if end is None or end >= _INT64_MAX else end
    start = max(0, start + extent if start < 0 else start)
    end = min(extent, end + extent if end < 0 else end)
    if start == 0 and end == extent and step == 1:
        return x
    return lower.builder.slice(lower.where(), x, dim, start, end, step)


@handles("aten.select.int", "aten.select_copy.int")
def _select(lower, x, dim, index):
    x = lower.tensor(x)
    dim = _dim(dim, len(x.shape))
    index = index + x.shape[dim] if index < 0 else index
    one = lower.builder.slice(lower.where(), x, dim, index, index + 1, 1)
    shape = list(x.shape)
    del shape[dim]
    return lower.builder.reshape(lower.where(), one, shape)


@handles("aten.split.Tensor", "aten.split_copy.Tensor")
def _split(lower, x, size, dim=0):
    x = lower.tensor(x)
    dim = _dim(dim, len(x.shape))
    sizes = [min(size, x.shape[dim] - start)
             for start in range(0, x.shape[dim], size)]
    return _split_with_sizes(lower, x, sizes, dim)


@handles("aten.split_with_sizes.default",
         "aten.split_with_sizes_copy.default")
def _split_with_sizes(lower, x, sizes, dim=0):
    x = lower.tensor(x)
    dim = _dim(dim, len(x.shape))
    parts, start = [], 0
    for size in sizes:
        parts.append(x if size == x.shape[dim] else lower.builder.slice(
            lower.where(), x, dim, start, start + size, 1))
        start += size
    return tuple(parts)


@handles("aten.zero.default", "aten.zero_.default")
def _zero(lower, x):
    return torch.zeros(list(lower.tensor(x).shape))


@handles("aten.slice_scatter.default")
def _slice_scatter(lower, x, part, dim=0, start=None, end=None, step=1):
    x = lower.tensor(x)
    dim = _dim(dim, len(x.shape))
    start = 0 if start is None else start
    start = start + x.shape[dim] if start < 0 else start
    return lower.builder.insert_slice(lower.where(), x, lower.tensor(part),
                                      dim, start, step)


@handles("aten.roll.default")
def _roll(lower, x, shifts, dims=()):
    x = lower.tensor(x)
    if not dims:
        lower.refuse("a roll of the flattened tensor")
    for shift, dim in zip(shifts, dims):
        dim = _dim(dim, len(x.shape))
        extent = x.shape[dim]
        cut = extent - shift % extent
        if cut == extent:
            continue
        tail = lower.builder.slice(lower.where(), x, dim, cut, extent, 1)
        head = lower.builder.slice(lower.where(), x, dim, 0, cut, 1)
        x = lower.builder.concat(lower.where(), [tail, head], dim)
    return x


@handles("aten.index.Tensor")
def _index(lower, x, indices):
    if len(indices) != 1 or indices[0] is None:
        lower.refuse("advanced indexing other than by one index tensor on "
                     "the first dim")
    return lower.builder.gather(lower.where(), lower.tensor(x),
                                lower.tensor(indices[0]))


@handles("aten.cat.default")
def _cat(lower, tensors, dim=0):
    tensors = [lower.tensor(t) for t in tensors]
    tensors = [t for t in tensors if 0 not in t.shape]
    return lower.builder.concat(lower.where(), tensors,
                                _dim(dim, len(tensors[0].shape)))


@handles("aten.constant_pad_nd.default")
def _constant_pad(lower, x, pad, value=0.0):
    x = lower.tensor(x)
    rank = len(x.shape)
    before, after = [0] * rank, [0] * rank
    for i in range(0, len(pad), 2):  # from the last dim backwards
        d = rank - 1 - i // 2
        before[d], after[d] = pad[i], pad[i + 1]
    if min(before + after) < 0:
        lower.refuse("negative padding (a crop)")
    return lower.builder.pad(lower.where(), x, before, after, float(value))


# --- Named compute ops ------------------------------------------------------

@handles("aten.convolution.default")
def _convolution(lower, x, weight, bias, stride, padding, dilation,
                 transposed, output_padding, groups):
    if transposed:
        lower.refuse("transposed convolutions are not supported")
    x = lower.tensor(x)
    if len(x.shape) != 4:
        lower.refuse(f"a {len(x.shape) - 2}-d convolution: the importer "
                     "takes 2-d ones")
    return lower.builder.convolution(
        lower.where(), x, lower.tensor(weight),
        None if bias is None else lower.tensor(bias), _pair(stride),
        _pair(padding), _pair(dilation), groups)


def _matmul(lower, a, b):
    """a x b, b read transposed when it is a Transposed value."""
    if isinstance(b, Transposed):
        return lower.builder.matmul(lower.where(), lower.tensor(a), b.value,
                                    True)
    return lower.builder.matmul(lower.where(), lower.tensor(a),
                                lower.tensor(b), False)


def _scaled(lower, x, factor):
    if factor == 1:
        return x
    return lower.builder.elementwise(lower.where(), "mul", [x, float(factor)])


@handles("aten.mm.default", "aten.bmm.default")
def _mm(lower, a, b):
    return _matmul(lower, a, b)


@handles("aten.addmm.default")
def _addmm(lower, bias, a, b, beta=1, alpha=1):
    product = _scaled(lower, _matmul(lower, a, b), alpha)
    if beta == 0:
        return product
    bias = _scaled(lower, lower.tensor(bias), beta)
    return lower.builder.elementwise(lower.where(), "add", [product, bias])


@handles("aten.max_pool2d.default")
def _max_pool(lower, x, kernel, stride=(), padding=(0,), dilation=(1,),
              ceil_mode=False):
    x = lower.tensor(x)
    out = _pooled_shape(x.shape, kernel, stride or kernel, padding, dilation,
                        ceil_mode)
    return _pool(lower, True, x, kernel, stride or kernel, padding, dilation,
                 out)


@handles("aten.max_pool2d_with_indices.default")
def _max_pool_with_indices(lower, *args, **kwargs):
    return _max_pool(lower, *args, **kwargs), None  # nothing reads indices


@handles("aten.avg_pool2d.default")
def _avg_pool(lower, x, kernel, stride=(), padding=(0,), ceil_mode=False,
              count_include_pad=True, divisor_override=None):
    if divisor_override is not None:
        lower.refuse("an average pool with a divisor override")
    if not count_include_pad and any(_pair(padding)):
        lower.refuse("an average pool that does not count its padding")
    x = lower.tensor(x)
    kernel, stride, padding = _pair(kernel), _pair(stride or kernel), \
        _pair(padding)
    out = _pooled_shape(x.shape, kernel, stride, padding, [1, 1], ceil_mode)
    for i in range(2):
        if (out[2 + i] - 1) * stride[i] + kernel[i] > \
                x.shape[2 + i] + 2 * padding[i]:
            lower.refuse("a ceil-mode average pool whose last window "
                         "overhangs the input (its divisor differs)")
    return _pool(lower, False, x, kernel, stride, padding, [1, 1], out)


def _pooled_shape(shape, kernel, stride, padding, dilation, ceil_mode):
    """PyTorch's output shape of 2-d pooling."""
    out = list(shape[:2])
    kernel, stride = _pair(kernel), _pair(stride)
    padding, dilation = _pair(padding), _pair(dilation)
    for i in range(2):
        span = shape[2 + i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1
        steps = -(-span // stride[i]) if ceil_mode else span // stride[i]
        if ceil_mode and steps * stride[i] >= shape[2 + i] + padding[i]:
            steps -= 1  # the last window must start inside the input
        out.append(steps + 1)
    return out


def _pool(lower, is_max, x, kernel, stride, padding, dilation, out):
    kernel, stride = _pair(kernel), _pair(stride)
    padding, dilation = _pair(padding), _pair(dilation)
    # Ceil mode: the last window may start in the padding after the input.
    after = []
    for i in range(2):
        reach = (out[2 + i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
        after.append(max(padding[i], reach - x.shape[2 + i] - padding[i]))
    return lower.builder.pool(lower.where(), is_max, x, kernel, stride,
                              padding, after, dilation)


@handles("aten._adaptive_avg_pool2d.default",
         "aten.adaptive_avg_pool2d.default")
def _adaptive_avg_pool(lower, x, output_size):
    x = lower.tensor(x)
    out = _pair(output_size)
    height, width = x.shape[2], x.shape[3]
    if out == [1, 1]:
        return lower.builder.reduce(lower.where(), "mean", x, [2, 3], True)
    if height % out[0] or width % out[1]:
        lower.refuse(f"an adaptive average pool from {height}x{width} to "
                     f"{out[0]}x{out[1]}: its windows differ in size")
    kernel = [height // out[0], width // out[1]]
    if kernel == [1, 1]:
        return x
    return lower.builder.pool(lower.where(), False, x, kernel, kernel, [0, 0],
                              [0, 0], [1, 1])


# --- Elementwise ------------------------------------------------------------

def _operand(lower, x):
    if isinstance(x, (int, float, bool)):
        return float(x)
    if isinstance(x, torch.Tensor) and x.dim() == 0:
        return float(x)
    return lower.tensor(x)


def _binary(kind):
    def handler(lower, a, b, alpha=1, **kwargs):
        if kwargs.get("rounding_mode") is not None:
            lower.refuse("a division with rounding")
        b = _operand(lower, b)
        if alpha != 1:
            b = (b * alpha if isinstance(b, float)
                 else _scaled(lower, b, alpha))
        return lower.builder.elementwise(lower.where(), kind,
                                         [_operand(lower, a), b])
    return handler


for _kind, _ops in {
        "add": ["aten.add.Tensor", "aten.add_.Tensor", "aten.add.Scalar"],
        "sub": ["aten.sub.Tensor", "aten.sub.Scalar"],
        "mul": ["aten.mul.Tensor", "aten.mul_.Tensor", "aten.mul.Scalar"],
        "div": ["aten.div.Tensor", "aten.div.Scalar", "aten.div.Tensor_mode"],
        "max": ["aten.maximum.default"],
        "min": ["aten.minimum.default"]}.items():
    handles(*_ops)(_binary(_kind))


@handles("aten.rsub.Scalar")
def _rsub(lower, a, b, alpha=1):
    scaled = _scaled(lower, lower.tensor(a), alpha)
    return lower.builder.elementwise(lower.where(), "sub", [float(b), scaled])


def _unary(kind):
    def handler(lower, x, *args, **kwargs):
        return lower.builder.elementwise(lower.where(), kind,
                                         [lower.tensor(x)])
    return handler


for _kind, _ops in {
        "relu": ["aten.relu.default", "aten.relu_.default"],
        "sigmoid": ["aten.sigmoid.default", "aten.sigmoid_.default"],
        "tanh": ["aten.tanh.default"],
        "exp": ["aten.exp.default"],
        "sqrt": ["aten.sqrt.default"],
        "rsqrt": ["aten.rsqrt.default"],
        "neg": ["aten.neg.default"],
        "silu": ["aten.silu.default", "aten.silu_.default"],
        "hardsigmoid": ["aten.hardsigmoid.default",
                        "aten.hardsigmoid_.default"],
        "hardswish": ["aten.hardswish.default", "aten.hardswish_.default"]
        }.items():
    handles(*_ops)(_unary(_kind))


@handles("aten.gelu.default", "aten.gelu_.default")
def _gelu(lower, x, approximate="none"):
    kind = "gelu_tanh" if approximate == "tanh" else "gelu"
    return lower.builder.elementwise(lower.where(), kind, [lower.tensor(x)])


@handles("aten.hardtanh.default", "aten.hardtanh_.default")
def _hardtanh(lower, x, low=-1.0, high=1.0):
    return lower.builder.clamp(lower.where(), lower.tensor(x), float(low),
                               float(high))


@handles("aten.clamp.default", "aten.clamp_.default")
def _clamp(lower, x, low=None, high=None):
    return lower.builder.clamp(
        lower.where(), lower.tensor(x),
        None if low is None else float(low),
        None if high is None else float(high))


@handles("aten.clamp_min.default", "aten.clamp_min_.default")
def _clamp_min(lower, x, low):
    return lower.builder.clamp(lower.where(), lower.tensor(x), float(low),
                               None)


# --- Reductions and normalisations ------------------------------------------

@handles("aten.mean.dim", "aten.sum.dim_IntList", "aten.amax.default")
def _reduce(lower, x, dims, keepdim=False, dtype=None):
    x = lower.tensor(x)
    rank = len(x.shape)
    dims = list(range(rank)) if not dims else [_dim(d, rank) for d in dims]
    kind = {"mean": "mean", "sum": "sum", "amax": "max"}[
        lower.node.target.__name__.split(".")[0]]
    return lower.builder.reduce(lower.where(), kind, x, dims, keepdim)


@handles("aten.norm.ScalarOpt_dim", "aten.linalg_vector_norm.default")
def _norm(lower, x, p=2, dims=None, keepdim=False, dtype=None):
    if p != 2:
        lower.refuse(f"a {p}-norm: the importer takes 2-norms")
    b, where = lower.builder, lower.where()
    x = lower.tensor(x)
    rank = len(x.shape)
    dims = list(range(rank)) if not dims else [_dim(d, rank) for d in dims]
    squares = b.reduce(where, "sum", b.elementwise(where, "mul", [x, x]),
                       dims, keepdim)
    return b.elementwise(where, "sqrt", [squares])


@handles("aten._softmax.default", "aten.softmax.int")
def _softmax(lower, x, dim, half_to_float=False):
    b, where = lower.builder, lower.where()
    x = lower.tensor(x)
    dim = _dim(dim, len(x.shape))
    peak = b.reduce(where, "max", x, [dim], True)
    exps = b.elementwise(where, "exp",
                         [b.elementwise(where, "sub", [x, peak])])
    total = b.reduce(where, "sum", exps, [dim], True)
    return b.elementwise(where, "div", [exps, total])


@handles("aten.native_batch_norm.default",
         "aten._native_batch_norm_legit_no_training.default")
def _batch_norm(lower, x, weight, bias, mean, var, *rest):
    training = rest[0] if len(rest) == 3 else False
    eps = rest[-1]
    if training:
        lower.refuse("batch norm in training mode (the importer puts the "
                     "model in eval mode)")
    # One generic: (x - mean) / sqrt(var + eps) x weight + bias, the
    # channels on dim 1.
    optional = [None if t is None else lower.tensor(t) for t in (weight, bias)]
    y = lower.builder.batch_norm(lower.where(), lower.tensor(x),
                                 lower.tensor(mean), lower.tensor(var),
                                 *optional, float(eps))
    return y, None, None


@handles("aten.native_layer_norm.default")
def _layer_norm(lower, x, normalized_shape, weight, bias, eps):
    b, where = lower.builder, lower.where()
    x = lower.tensor(x)
    rank = len(x.shape)
    dims = list(range(rank - len(normalized_shape), rank))
    mean = b.reduce(where, "mean", x, dims, True)
    centered = b.elementwise(where, "sub", [x, mean])
    var = b.reduce(where, "mean",
                   b.elementwise(where, "mul", [centered, centered]), dims,
                   True)
    y = b.elementwise(where, "mul", [centered, b.elementwise(
        where, "rsqrt", [b.elementwise(where, "add", [var, float(eps)])])])
    if weight is not None:
        y = b.elementwise(where, "mul", [y, lower.tensor(weight)])
    if bias is not None:
        y = b.elementwise(where, "add", [y, lower.tensor(bias)])
    return y, None, None

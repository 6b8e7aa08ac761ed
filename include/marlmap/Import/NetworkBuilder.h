//===- NetworkBuilder.h - A network's linalg, built op by op ----*- C++ -*-===//
//
// What an importer calls to write a network as MLIR: one func.func on f32
// tensors whose compute is linalg (named ops where linalg has one, generics
// for the rest) and whose shape changes are tensor ops. Every call checks
// its operands' shapes against what it is asked to build and, when they do
// not agree, reports an error at the location it is given (the importer's
// name for the graph node) and returns failure.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_IMPORT_NETWORKBUILDER_H
#define MARLMAP_IMPORT_NETWORKBUILDER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace marlmap {

/// What an elementwise op computes of its operands (x, y: the first two).
enum class Elementwise {
  Copy,        // x (a broadcast)
  Add,         // x + y
  Sub,         // x - y
  Mul,         // x * y
  Div,         // x / y
  Max,         // max(x, y)
  Min,         // min(x, y)
  Relu,        // max(x, 0)
  Sigmoid,     // 1 / (1 + exp(-x))
  Tanh,        // tanh(x)
  Exp,         // exp(x)
  Sqrt,        // sqrt(x)
  Rsqrt,       // 1 / sqrt(x)
  Neg,         // -x
  Gelu,        // x / 2 (1 + erf(x / sqrt 2))
  GeluTanh,    // x / 2 (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
  Silu,        // x sigmoid(x)
  HardSigmoid, // min(max(x / 6 + 1/2, 0), 1)
  HardSwish,   // x hardsigmoid(x)
};

/// How a reduction combines.
enum class Reduction { Sum, Max, Mean };

/// An elementwise operand: a tensor, broadcast to the result's shape as
/// numpy does (aligned on the right, dims of 1 stretched), or a scalar.
using ElementwiseOperand = std::variant<mlir::Value, double>;

struct ConvolutionParams {
  int64_t strides[2] = {1, 1};
  int64_t padding[2] = {0, 0};
  int64_t dilations[2] = {1, 1};
  int64_t groups = 1;
};

struct PoolingParams {
  int64_t kernel[2] = {1, 1};
  int64_t strides[2] = {1, 1};
  /// Padding before and after, per spatial dim: (top, bottom), (left, right).
  int64_t padBefore[2] = {0, 0}, padAfter[2] = {0, 0};
  int64_t dilations[2] = {1, 1};
};

class NetworkBuilder {
public:
  /// A module holding an empty function named `function`.
  NetworkBuilder(mlir::MLIRContext &context, llvm::StringRef function);
  ~NetworkBuilder();

  /// A new argument of the function: an f32 tensor of `shape` (i64 when
  /// `integer`), named `name` in its location.
  mlir::Value argument(llvm::ArrayRef<int64_t> shape, llvm::StringRef name,
                       bool integer = false);

  /// A constant tensor of `shape` holding `values` in row-major order (f32,
  /// or i64 when `integer`; one value fills the whole tensor).
  mlir::FailureOr<mlir::Value> constant(mlir::Location location,
                                        llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<double> values,
                                        bool integer = false);

  /// The rows of `table` (along its first dim) that the i64 `indices`
  /// pick: a result of indices' shape followed by the rest of table's.
  mlir::FailureOr<mlir::Value> gather(mlir::Location location,
                                      mlir::Value table, mlir::Value indices);

  /// A 2-d convolution of an NCHW input by an FCHW weight (F / groups
  /// filters per group, C / groups channels each), zero padding, optional
  /// bias of F: linalg.conv_2d_nchw_fchw, a depthwise op when every group
  /// has one channel and one filter, linalg.conv_2d_ngchw_gfchw otherwise.
  mlir::FailureOr<mlir::Value>
  convolution(mlir::Location location, mlir::Value input, mlir::Value weight,
              std::optional<mlir::Value> bias, const ConvolutionParams &params);

  /// a x b for 2-d operands (linalg.matmul), per batch for 3-d ones
  /// (linalg.batch_matmul); `transposeB`: b is stored N x K.
  mlir::FailureOr<mlir::Value> matmul(mlir::Location location, mlir::Value a,
                                      mlir::Value b, bool transposeB);

  /// `kind` of `operands` with numpy broadcasting, in one linalg.generic.
  mlir::FailureOr<mlir::Value>
  elementwise(mlir::Location location, Elementwise kind,
              llvm::ArrayRef<ElementwiseOperand> operands);
  /// `input` broadcast to `shape` as numpy does (a copy).
  mlir::FailureOr<mlir::Value> broadcast(mlir::Location location,
                                         mlir::Value input,
                                         llvm::ArrayRef<int64_t> shape);
  /// x clamped to [low, high] (either side may be open).
  mlir::FailureOr<mlir::Value> clamp(mlir::Location location, mlir::Value x,
                                     std::optional<double> low,
                                     std::optional<double> high);

  /// Inference batch norm of an input whose channels are dim 1, in one
  /// linalg.generic: (x - mean) / sqrt(variance + epsilon) x weight + bias,
  /// each per-channel operand a 1-d tensor (weight and bias optional).
  mlir::FailureOr<mlir::Value>
  batchNorm(mlir::Location location, mlir::Value input, mlir::Value mean,
            mlir::Value variance, std::optional<mlir::Value> weight,
            std::optional<mlir::Value> bias, double epsilon);

  /// `kind` over `dims` of `input`; `keepDims` keeps them with extent 1.
  mlir::FailureOr<mlir::Value> reduce(mlir::Location location, Reduction kind,
                                      mlir::Value input,
                                      llvm::ArrayRef<int64_t> dims,
                                      bool keepDims);

  /// Max or average pooling of an NCHW input (padding counts in the
  /// average, as PyTorch's default count_include_pad does).
  mlir::FailureOr<mlir::Value> pool(mlir::Location location, bool max,
                                    mlir::Value input,
                                    const PoolingParams &params);

  /// The same elements in row-major order, in `shape`.
  mlir::FailureOr<mlir::Value> reshape(mlir::Location location,
                                       mlir::Value input,
                                       llvm::ArrayRef<int64_t> shape);
  /// Dim i of the result is dim `permutation[i]` of the input.
  mlir::FailureOr<mlir::Value> permute(mlir::Location location,
                                       mlir::Value input,
                                       llvm::ArrayRef<int64_t> permutation);
  /// Elements start, start + step, ... < end of `dim`.
  mlir::FailureOr<mlir::Value> slice(mlir::Location location, mlir::Value input,
                                     int64_t dim, int64_t start, int64_t end,
                                     int64_t step);
  /// `into` with `part` written over its elements start, start + step, ...
  /// of `dim`.
  mlir::FailureOr<mlir::Value> insertSlice(mlir::Location location,
                                           mlir::Value into, mlir::Value part,
                                           int64_t dim, int64_t start,
                                           int64_t step);
  /// The operands one after the other along `dim`.
  mlir::FailureOr<mlir::Value> concat(mlir::Location location,
                                      llvm::ArrayRef<mlir::Value> inputs,
                                      int64_t dim);
  /// `input` with `before` and `after` elements of `value` around each dim.
  mlir::FailureOr<mlir::Value> pad(mlir::Location location, mlir::Value input,
                                   llvm::ArrayRef<int64_t> before,
                                   llvm::ArrayRef<int64_t> after, double value);

  /// The module, with the function returning `results` and, when given,
  /// `accel.target` set to `target` (a preset's name or a description
  /// file's path).
  mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
  finish(llvm::ArrayRef<mlir::Value> results,
         std::optional<std::string> target = std::nullopt);

private:
  mlir::RankedTensorType tensorOf(llvm::ArrayRef<int64_t> shape) const;
  /// `kind` of `operands`, broadcast to `shape` (to each other's when
  /// none is given).
  mlir::FailureOr<mlir::Value>
  elementwiseTo(mlir::Location location, Elementwise kind,
                llvm::ArrayRef<ElementwiseOperand> operands,
                std::optional<llvm::ArrayRef<int64_t>> shape);
  mlir::Value zeros(mlir::Location location, llvm::ArrayRef<int64_t> shape,
                    double value);
  /// An NCHW input with `before` and `after` elements of `value` around
  /// its two spatial dims (itself without padding).
  mlir::FailureOr<mlir::Value> padSpatial(mlir::Location location,
                                          mlir::Value input,
                                          const int64_t (&before)[2],
                                          const int64_t (&after)[2],
                                          double value);
  /// The convolution of a padded input whose outputs are `out` (height,
  /// width), with one group or several.
  mlir::FailureOr<mlir::Value> convolutionOnly(mlir::Location location,
                                               mlir::Value input,
                                               mlir::Value weight,
                                               const ConvolutionParams &params,
                                               llvm::ArrayRef<int64_t> out);
  mlir::FailureOr<mlir::Value>
  groupedConvolution(mlir::Location location, mlir::Value input,
                     mlir::Value weight, const ConvolutionParams &params,
                     llvm::ArrayRef<int64_t> out);

  mlir::MLIRContext &context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp function;
  mlir::OpBuilder builder;
};

} // namespace marlmap

#endif // MARLMAP_IMPORT_NETWORKBUILDER_H

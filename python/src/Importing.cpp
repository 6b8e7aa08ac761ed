//===- Importing.cpp - The importer's builder, as Python sees it ----------===//
//
// marlmap.importer walks a traced PyTorch graph and calls this builder
// once per operation: the network is written by MLIR's builders
// (NetworkBuilder), never pasted together as text. Values are handles into
// the builder; a call whose operands do not fit raises ValueError with the
// builder's diagnostic, at the location the importer names.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "PyMarlmap.h"

#include "marlmap/Import/NetworkBuilder.h"

#include "mlir/IR/OperationSupport.h"

#include <pybind11/stl.h>

namespace marlmap::python {

namespace {

/// A tensor of the network being built.
struct BuiltValue {
  size_t id;
  std::vector<int64_t> shape;
};

class PyNetworkBuilder {
public:
  explicit PyNetworkBuilder(const std::string &function)
      : builder(context.mlir, function) {}

  BuiltValue argument(const std::vector<int64_t> &shape,
                      const std::string &name, bool integer) {
    return handle(builder.argument(shape, name, integer));
  }

  BuiltValue constant(const std::string &where,
                      const std::vector<int64_t> &shape,
                      const std::vector<double> &values, bool integer) {
    return built(builder.constant(at(where), shape, values, integer));
  }

  BuiltValue gather(const std::string &where, const BuiltValue &table,
                    const BuiltValue &indices) {
    return built(builder.gather(at(where), value(table), value(indices)));
  }

  BuiltValue convolution(const std::string &where, const BuiltValue &input,
                         const BuiltValue &weight,
                         const std::optional<BuiltValue> &bias,
                         const std::vector<int64_t> &strides,
                         const std::vector<int64_t> &padding,
                         const std::vector<int64_t> &dilations,
                         int64_t groups) {
    ConvolutionParams params;
    pairInto(strides, params.strides, "strides");
    pairInto(padding, params.padding, "padding");
    pairInto(dilations, params.dilations, "dilations");
    params.groups = groups;
    std::optional<mlir::Value> biasValue;
    if (bias)
      biasValue = value(*bias);
    return built(builder.convolution(at(where), value(input), value(weight),
                                     biasValue, params));
  }

  BuiltValue matmul(const std::string &where, const BuiltValue &a,
                    const BuiltValue &b, bool transposeB) {
    return built(builder.matmul(at(where), value(a), value(b), transposeB));
  }

  BuiltValue elementwise(const std::string &where, const std::string &kind,
                         const py::list &operands) {
    std::vector<ElementwiseOperand> values;
    for (const py::handle &operand : operands) {
      if (py::isinstance<BuiltValue>(operand))
        values.push_back(value(operand.cast<BuiltValue>()));
      else
        values.push_back(operand.cast<double>());
    }
    return built(builder.elementwise(at(where), elementwiseKind(kind), values));
  }

  BuiltValue broadcast(const std::string &where, const BuiltValue &input,
                       const std::vector<int64_t> &shape) {
    return built(builder.broadcast(at(where), value(input), shape));
  }

  BuiltValue clamp(const std::string &where, const BuiltValue &x,
                   std::optional<double> low, std::optional<double> high) {
    return built(builder.clamp(at(where), value(x), low, high));
  }

  BuiltValue batchNorm(const std::string &where, const BuiltValue &input,
                       const BuiltValue &mean, const BuiltValue &variance,
                       const std::optional<BuiltValue> &weight,
                       const std::optional<BuiltValue> &bias, double epsilon) {
    std::optional<mlir::Value> weightValue, biasValue;
    if (weight)
      weightValue = value(*weight);
    if (bias)
      biasValue = value(*bias);
    return built(builder.batchNorm(at(where), value(input), value(mean),
                                   value(variance), weightValue, biasValue,
                                   epsilon));
  }

  BuiltValue reduce(const std::string &where, const std::string &kind,
                    const BuiltValue &input, const std::vector<int64_t> &dims,
                    bool keepDims) {
    Reduction reduction =
        kind == "sum"    ? Reduction::Sum
        : kind == "max"  ? Reduction::Max
        : kind == "mean" ? Reduction::Mean
                         : throw py::value_error("no reduction '" + kind + "'");
    return built(
        builder.reduce(at(where), reduction, value(input), dims, keepDims));
  }

  BuiltValue pool(const std::string &where, bool max, const BuiltValue &input,
                  const std::vector<int64_t> &kernel,
                  const std::vector<int64_t> &strides,
                  const std::vector<int64_t> &padBefore,
                  const std::vector<int64_t> &padAfter,
                  const std::vector<int64_t> &dilations) {
    PoolingParams params;
    pairInto(kernel, params.kernel, "kernel");
    pairInto(strides, params.strides, "strides");
    pairInto(padBefore, params.padBefore, "padding before");
    pairInto(padAfter, params.padAfter, "padding after");
    pairInto(dilations, params.dilations, "dilations");
    return built(builder.pool(at(where), max, value(input), params));
  }

  BuiltValue reshape(const std::string &where, const BuiltValue &input,
                     const std::vector<int64_t> &shape) {
    return built(builder.reshape(at(where), value(input), shape));
  }

  BuiltValue permute(const std::string &where, const BuiltValue &input,
                     const std::vector<int64_t> &permutation) {
    return built(builder.permute(at(where), value(input), permutation));
  }

  BuiltValue slice(const std::string &where, const BuiltValue &input,
                   int64_t dim, int64_t start, int64_t end, int64_t step) {
    return built(builder.slice(at(where), value(input), dim, start, end, step));
  }

  BuiltValue insert_slice(const std::string &where, const BuiltValue &into,
                          const BuiltValue &part, int64_t dim, int64_t start,
                          int64_t step) {
    return built(builder.insertSlice(at(where), value(into), value(part), dim,
                                     start, step));
  }

  BuiltValue concat(const std::string &where,
                    const std::vector<BuiltValue> &inputs, int64_t dim) {
    std::vector<mlir::Value> values;
    for (const BuiltValue &input : inputs)
      values.push_back(value(input));
    return built(builder.concat(at(where), values, dim));
  }

  BuiltValue pad(const std::string &where, const BuiltValue &input,
                 const std::vector<int64_t> &before,
                 const std::vector<int64_t> &after, double fill) {
    return built(builder.pad(at(where), value(input), before, after, fill));
  }

  /// The module's text, locations included (they name the model's layers).
  std::string finish(const std::vector<BuiltValue> &results,
                     const std::optional<std::string> &target) {
    if (finished)
      throw py::value_error("the network is finished already");
    std::vector<mlir::Value> values;
    for (const BuiltValue &result : results)
      values.push_back(value(result));
    finished = true;
    auto module = builder.finish(values, target);
    if (mlir::failed(module))
      throw py::value_error(context.diagnostics.errorText());
    std::string text;
    llvm::raw_string_ostream os(text);
    (**module)->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                              /*enable=*/true, /*prettyForm=*/false));
    return text;
  }

private:
  static Elementwise elementwiseKind(const std::string &kind) {
    static const std::map<std::string, Elementwise> kinds = {
        {"copy", Elementwise::Copy},
        {"add", Elementwise::Add},
        {"sub", Elementwise::Sub},
        {"mul", Elementwise::Mul},
        {"div", Elementwise::Div},
        {"max", Elementwise::Max},
        {"min", Elementwise::Min},
        {"relu", Elementwise::Relu},
        {"sigmoid", Elementwise::Sigmoid},
        {"tanh", Elementwise::Tanh},
        {"exp", Elementwise::Exp},
        {"sqrt", Elementwise::Sqrt},
        {"rsqrt", Elementwise::Rsqrt},
        {"neg", Elementwise::Neg},
        {"gelu", Elementwise::Gelu},
        {"gelu_tanh", Elementwise::GeluTanh},
        {"silu", Elementwise::Silu},
        {"hardsigmoid", Elementwise::HardSigmoid},
        {"hardswish", Elementwise::HardSwish},
    };
    auto found = kinds.find(kind);
    if (found == kinds.end())
      throw py::value_error("no elementwise op '" + kind + "'");
    return found->second;
  }

  static void pairInto(const std::vector<int64_t> &values, int64_t (&into)[2],
                       const char *what) {
    if (values.size() != 2)
      throw py::value_error(std::string(what) + " takes two values, not " +
                            std::to_string(values.size()));
    into[0] = values[0];
    into[1] = values[1];
  }

  mlir::Location at(const std::string &where) {
    return mlir::NameLoc::get(mlir::StringAttr::get(&context.mlir, where));
  }

  mlir::Value value(const BuiltValue &handle) const {
    if (handle.id >= values.size())
      throw py::value_error("a value of another network");
    return values[handle.id];
  }

  BuiltValue handle(mlir::Value value) {
    values.push_back(value);
    auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
    return {values.size() - 1, type.getShape().vec()};
  }

  BuiltValue built(mlir::FailureOr<mlir::Value> value) {
    if (mlir::failed(value))
      throw py::value_error(context.diagnostics.errorText());
    return handle(*value);
  }

  Context context;
  NetworkBuilder builder;
  std::vector<mlir::Value> values;
  bool finished = false;
};

} // namespace

void bindImporter(py::module_ &m) {
  py::class_<BuiltValue>(m, "BuiltValue",
                         "A tensor of a network that NetworkBuilder builds.")
      .def_property_readonly(
          "shape",
          [](const BuiltValue &v) { return py::tuple(py::cast(v.shape)); })
      .def("__repr__", [](const BuiltValue &v) {
        std::string text = "<marlmap.BuiltValue %" + std::to_string(v.id) + " ";
        for (size_t d = 0; d < v.shape.size(); ++d)
          text += (d ? "x" : "") + std::to_string(v.shape[d]);
        return text + ">";
      });

  py::class_<PyNetworkBuilder>(
      m, "NetworkBuilder",
      "Writes a network as one function of linalg ops through MLIR's "
      "builders. Each method takes `where` (the location the op gets: the "
      "model's layer) and returns the op's result.")
      .def(py::init<const std::string &>(), py::arg("function"))
      .def("argument", &PyNetworkBuilder::argument, py::arg("shape"),
           py::arg("name"), py::arg("integer") = false)
      .def("constant", &PyNetworkBuilder::constant, py::arg("where"),
           py::arg("shape"), py::arg("values"), py::arg("integer") = false)
      .def("gather", &PyNetworkBuilder::gather, py::arg("where"),
           py::arg("table"), py::arg("indices"))
      .def("convolution", &PyNetworkBuilder::convolution, py::arg("where"),
           py::arg("input"), py::arg("weight"), py::arg("bias"),
           py::arg("strides"), py::arg("padding"), py::arg("dilations"),
           py::arg("groups"))
      .def("matmul", &PyNetworkBuilder::matmul, py::arg("where"), py::arg("a"),
           py::arg("b"), py::arg("transpose_b") = false)
      .def("elementwise", &PyNetworkBuilder::elementwise, py::arg("where"),
           py::arg("kind"), py::arg("operands"))
      .def("broadcast", &PyNetworkBuilder::broadcast, py::arg("where"),
           py::arg("input"), py::arg("shape"))
      .def("clamp", &PyNetworkBuilder::clamp, py::arg("where"), py::arg("x"),
           py::arg("low"), py::arg("high"))
      .def("batch_norm", &PyNetworkBuilder::batchNorm, py::arg("where"),
           py::arg("input"), py::arg("mean"), py::arg("variance"),
           py::arg("weight"), py::arg("bias"), py::arg("epsilon"))
      .def("reduce", &PyNetworkBuilder::reduce, py::arg("where"),
           py::arg("kind"), py::arg("input"), py::arg("dims"),
           py::arg("keep_dims"))
      .def("pool", &PyNetworkBuilder::pool, py::arg("where"), py::arg("max"),
           py::arg("input"), py::arg("kernel"), py::arg("strides"),
           py::arg("pad_before"), py::arg("pad_after"), py::arg("dilations"))
      .def("reshape", &PyNetworkBuilder::reshape, py::arg("where"),
           py::arg("input"), py::arg("shape"))
      .def("permute", &PyNetworkBuilder::permute, py::arg("where"),
           py::arg("input"), py::arg("permutation"))
      .def("slice", &PyNetworkBuilder::slice, py::arg("where"),
           py::arg("input"), py::arg("dim"), py::arg("start"), py::arg("end"),
           py::arg("step") = 1)
      .def("insert_slice", &PyNetworkBuilder::insert_slice, py::arg("where"),
           py::arg("into"), py::arg("part"), py::arg("dim"), py::arg("start"),
           py::arg("step") = 1)
      .def("concat", &PyNetworkBuilder::concat, py::arg("where"),
           py::arg("inputs"), py::arg("dim"))
      .def("pad", &PyNetworkBuilder::pad, py::arg("where"), py::arg("input"),
           py::arg("before"), py::arg("after"), py::arg("value") = 0.0)
      .def("finish", &PyNetworkBuilder::finish, py::arg("results"),
           py::arg("target") = py::none(),
           "The module's text; the builder takes no more ops after.");
}

} // namespace marlmap::python

// One op on the CPU backend, as the executor drives it, and the pieces the op suites share to
// check it against PyTorch: the seq() inputs their references were computed from, a reference's
// values and gradients, and the shape errors' wording.
//
// The op suites' references were computed by PyTorch 1.13 (Debian's python3-torch) in float32:
//   seq = lambda shape, a, b, scale=1.0: torch.tensor([scale * math.sin(a * i + b) for i in
//             range(math.prod(shape))], dtype=torch.float32).reshape(shape).requires_grad_()
//   y = <the op>; (y * seq(y.shape, 0.7, 0.3)).sum().backward()   # dy = dyFor(y)
// printed with 7 significant digits. expectClose's tolerance, 1e-5 + 1e-5 relative: float32
// sums of a few dozen terms of order one in another order, and the printed digits, differ by
// ~1e-6; a wrong index or weight moves a value by ~0.1.
#pragma once
#include <QString>
#include <QtTest>

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/op.h"
#include "types/attrs.h"

namespace ts::test {

// seq(shape, a, b, scale)[i] = scale * sin(a * i + b), in double, then rounded to float.
Tensor seq(const Shape& shape, double a, double b, double scale = 1.0);
// The output gradient every reference used: seq(y.shape, 0.7, 0.3).
Tensor dyFor(const Tensor& y);

// PyTorch's output shape and values, and its gradients: each differentiable input's, then
// each trainable parameter's.
struct Reference {
    Shape shape;
    std::vector<float> y;
    std::vector<std::vector<float>> grads;
};

class OpRun {
public:
    OpRun(const std::string& type, const Attrs& given, std::vector<Tensor> inputs, std::vector<Tensor> params = {},
          bool training = true, std::uint64_t seed = 11);
    Tensor forward();
    // Each differentiable float input's gradient, then each trainable parameter's. Accumulate
    // writes into zeros; Overwrite hands the inputs' gradients in filled with NaN, so an element
    // the op does not write shows.
    std::vector<Tensor> backward(const Tensor& dy, GradWrite write = GradWrite::Accumulate);
    const Op& op() const { return *op_; }

private:
    OpContext context();

    const Op* op_;
    Attrs attrs_;
    std::vector<Tensor> inputs_, params_, saved_;
    std::vector<ParamSpec> paramSpecs_;
    TensorSpec out_;
    Tensor y_;
    std::vector<char> workspace_;
    bool training_;
    std::uint64_t seed_;
};

// got == want within 1e-5 + 1e-5 relative, element by element; `what` names the tensor.
void expectClose(const Tensor& got, const std::vector<float>& want, const QString& what);

// The op against PyTorch: forward, and backward from dyFor(y) accumulating into zeros and,
// where the op may be handed a fresh input gradient, overwriting a NaN-filled one.
void expectReference(const std::string& type, const Attrs& attrs, const std::vector<Tensor>& inputs,
                     const std::vector<Tensor>& params, const Reference& ref);

// The error an op's attributes or shape rule gives for these inputs, and the attributes it names.
struct Refusal {
    QString message;
    std::vector<std::string> attrs;
    bool names(const std::string& a) const;
};
Refusal refusal(const std::string& type, const Attrs& given, const std::vector<TensorSpec>& inputs);
// One input of this shape (a template so that a braced list of specs picks the one above).
template <std::same_as<Shape> S> Refusal refusal(const std::string& type, const Attrs& given, const S& input)
{
    return refusal(type, given, std::vector<TensorSpec>{{input}});
}

}  // namespace ts::test

// The refusal names `attr` and its message contains `words`.
#define EXPECT_REFUSED(r, attr, words)                                                                             \
    do {                                                                                                           \
        const ::ts::test::Refusal refused = (r);                                                                   \
        QVERIFY2(refused.names(attr), qPrintable("does not name " attr ": " + refused.message));                  \
        QVERIFY2(refused.message.contains(words), qPrintable(refused.message));                                    \
    } while (false)

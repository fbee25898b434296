// The sequence ops a Transformer builder needs beside attention (Permute, MatMul, Slice,
// PositionalEncoding, SequencePool) and CrossEntropy over positions with ignore_index, against
// PyTorch: the forward and every gradient of sum(y * dy) on fixed inputs; the permute primitive
// against a plain index loop on shapes that exercise its tiles; the shape errors, which name
// the attribute at fault. Finite-difference checks of each op's cases: tst_op_registry.
//
// The references were computed by PyTorch from seq() inputs as op_run.h says, with
// x = seq(x_shape, 0.37, 0.1), y = <the PyTorch expression above each reference>; second inputs
// and parameters are seq(shape, 0.9, 0.2, 0.5). Tolerance: expectClose's (op_run.h).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "backend/cpu/cpu_backend.h"
#include "exec/executor.h"
#include "gradcheck.h"
#include "op_run.h"
#include "graph/graph.h"
#include "ops/init.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

using i64 = std::int64_t;
using Ints = std::vector<i64>;

Tensor xFor(const Shape& shape) { return seq(shape, 0.37, 0.1); }
Tensor secondFor(const Shape& shape) { return seq(shape, 0.9, 0.2, 0.5); }

// y[j] = x[i] where y's index j, read in x's order through perm, is i: the definition, loop by loop.
std::vector<float> naivePermute(const std::vector<float>& x, const Ints& shape, const std::vector<int>& perm)
{
    const int rank = int(shape.size());
    Ints xStride(static_cast<std::size_t>(rank), 1), yShape(static_cast<std::size_t>(rank));
    for (int d = rank - 2; d >= 0; --d) xStride[std::size_t(d)] = xStride[std::size_t(d + 1)] * shape[std::size_t(d + 1)];
    for (int d = 0; d < rank; ++d) yShape[std::size_t(d)] = shape[std::size_t(perm[std::size_t(d)])];
    std::vector<float> y(x.size());
    Ints index(static_cast<std::size_t>(rank), 0);
    for (std::size_t j = 0; j < y.size(); ++j) {
        i64 from = 0;
        for (int d = 0; d < rank; ++d) from += index[std::size_t(d)] * xStride[std::size_t(perm[std::size_t(d)])];
        y[j] = x[std::size_t(from)];
        for (int d = rank - 1; d >= 0 && ++index[std::size_t(d)] == yShape[std::size_t(d)]; --d) index[std::size_t(d)] = 0;
    }
    return y;
}

Tensor targets(const Shape& shape, const std::vector<i64>& values) { return indices(shape, values); }

// ---- Permute: x = seq([2, 3, 4]); x.permute(0, 2, 1)
const Reference kPermuteSwap{
    Shape{2, 4, 3},
    {0.09983341f, 0.9999576f, 0.08150215f, 0.4528863f, 0.9289597f, -0.2844257f, 0.7446431f, 0.7322314f,
     -0.6118579f, 0.935616f, 0.4363991f, -0.856478f, -0.9851778f, -0.2601575f, 0.938f, -0.9805384f, 0.1066117f,
     0.9998717f, -0.8431877f, 0.4589515f, 0.9264155f, -0.5917156f, 0.7491744f, 0.7275733f},
    {{0.2955202f, 0.6754632f, -0.9775301f, 0.3115413f, 0.841471f, 0.04158066f, -0.8834547f, 0.8504366f, 0.9916648f,
      -0.6118579f, -0.3738767f, 0.9893582f, 0.6629692f, -0.9809362f, 0.3274744f, 0.6502879f, 0.02477542f,
      -0.8754522f, 0.8591618f, 0.007963183f, -0.6250706f, -0.3582293f, 0.9867719f, -0.6381067f}}};

// x = seq([2, 3, 2, 2]); x.permute(0, 2, 1, 3)  (heads before tokens)
const Reference kPermuteHeads{
    Shape{2, 2, 3, 2},
    {0.09983341f, 0.4528863f, 0.9999576f, 0.9289597f, 0.08150215f, -0.2844257f, 0.7446431f, 0.935616f,
     0.7322314f, 0.4363991f, -0.6118579f, -0.856478f, -0.9851778f, -0.9805384f, -0.2601575f, 0.1066117f, 0.938f,
     0.9998717f, -0.8431877f, -0.5917156f, 0.4589515f, 0.7491744f, 0.9264155f, 0.7275733f},
    {{0.2955202f, 0.841471f, -0.9775301f, -0.8834547f, 0.9916648f, 0.6754632f, -0.3738767f, 0.3115413f,
      0.04158066f, -0.6118579f, 0.8504366f, 0.9893582f, 0.6629692f, 0.02477542f, 0.3274744f, 0.8591618f,
      -0.6250706f, -0.9809362f, 0.9867719f, 0.6502879f, -0.8754522f, -0.3582293f, 0.007963183f, -0.6381067f}}};

// ---- MatMul: a = seq([2, 2, 3]), b = seq([2, 3, 4], 0.9, 0.2, 0.5); torch.matmul(a, b)
const Reference kMatMul{
    Shape{2, 2, 4},
    {0.2059743f, 0.1539584f, -0.01457015f, -0.1720723f, 0.204455f, 0.3360142f, 0.2132845f, -0.07085454f,
     -0.1955167f, -0.1711591f, -0.0172717f, 0.1496866f, 0.1274819f, -0.0813896f, -0.2286671f, -0.2028939f},
    {{0.9359791f, -0.751461f, 0.4117789f, -0.8186315f, 0.5067015f, -0.09014603f, 0.637248f, -0.9010113f, 0.978731f,
      -0.8558356f, 0.9889556f, -0.9178728f},
     {0.06840633f, -0.4884571f, -0.8155916f, -0.7591406f, 0.175416f, -0.2307413f, -0.5283773f, -0.5775092f,
      0.2586839f, 0.05820423f, -0.1696498f, -0.3177148f, -0.4623297f, 0.2210736f, 0.8005026f, 1.003443f,
      -0.5688024f, 0.1207973f, 0.7535841f, 1.031949f, -0.5982903f, 0.004171686f, 0.6046716f, 0.9207851f}}};

// ---- Slice: x = seq([2, 3, 6]); x[..., 1:-2]
const Reference kSliceLast{
    Shape{2, 3, 3},
    {0.4528863f, 0.7446431f, 0.935616f, 0.4363991f, 0.08150215f, -0.2844257f, -0.9805384f, -0.8431877f,
     -0.5917156f, 0.7491744f, 0.938f, 0.9998717f, 0.07470829f, -0.2909523f, -0.6172339f, -0.8395045f,
     -0.5862082f, -0.2535715f},
    {{0.0f, 0.2955202f, 0.841471f, 0.9916648f, 0.0f, 0.0f, 0.0f, 0.6754632f, 0.04158066f, -0.6118579f, 0.0f, 0.0f,
      0.0f, -0.9775301f, -0.8834547f, -0.3738767f, 0.0f, 0.0f, 0.0f, 0.3115413f, 0.8504366f, 0.9893582f, 0.0f, 0.0f,
      0.0f, 0.6629692f, 0.02477542f, -0.6250706f, 0.0f, 0.0f, 0.0f, -0.9809362f, -0.8754522f, -0.3582293f, 0.0f,
      0.0f}}};

// x = seq([2, 4, 3]); x[:, 2:]
const Reference kSliceTokens{
    Shape{2, 2, 3},
    {0.7322314f, 0.4363991f, 0.08150215f, -0.2844257f, -0.6118579f, -0.856478f, 0.4589515f, 0.7491744f, 0.938f,
     0.9998717f, 0.9264155f, 0.7275733f},
    {{0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.2955202f, 0.841471f, 0.9916648f, 0.6754632f, 0.04158066f, -0.6118579f,
      0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.9775301f, -0.8834547f, -0.3738767f, 0.3115413f, 0.8504366f,
      0.9893582f}}};

// ---- PositionalEncoding. The table as the PyTorch tutorial writes it (max_len 6, d_model 4):
//   position = torch.arange(max_len).unsqueeze(1)
//   div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
//   pe[:, 0::2] = torch.sin(position * div_term); pe[:, 1::2] = torch.cos(position * div_term)
const std::vector<float> kSinusoids{
    0.0f, 1.0f, 0.0f, 1.0f, 0.841471f, 0.5403023f, 0.009999833f, 0.99995f, 0.9092974f, -0.4161468f, 0.01999867f, 0.9998f,
    0.14112f, -0.9899925f, 0.0299955f, 0.99955f, -0.7568025f, -0.6536436f, 0.03998933f, 0.9992001f, -0.9589243f,
    0.2836622f, 0.04997917f, 0.9987503f};

// x = seq([2, 3, 4]); x + pe[:3]
const Reference kSinusoidal{
    Shape{2, 3, 4},
    {0.09983341f, 1.452886f, 0.7446431f, 1.935616f, 1.841429f, 1.469262f, 0.7422312f, 1.436349f, 0.9907995f,
     -0.7005726f, -0.5918592f, 0.1433221f, -0.9851778f, 0.01946163f, -0.8431877f, 0.4082844f, 0.5813135f,
     0.646914f, 0.4689513f, 1.749124f, 1.847297f, 0.5837249f, 0.9464142f, 1.727373f},
    {{0.2955202f, 0.841471f, 0.9916648f, 0.6754632f, 0.04158066f, -0.6118579f, -0.9775301f, -0.8834547f,
      -0.3738767f, 0.3115413f, 0.8504366f, 0.9893582f, 0.6629692f, 0.02477542f, -0.6250706f, -0.9809362f,
      -0.8754522f, -0.3582293f, 0.3274744f, 0.8591618f, 0.9867719f, 0.6502879f, 0.007963183f, -0.6381067f}}};

// x = seq([2, 3, 4]), w = seq([6, 4], 0.9, 0.2, 0.5); x + w[:3]  (gradients: x, w)
const Reference kLearned{
    Shape{2, 3, 4},
    {0.1991681f, 0.89849f, 1.199292f, 1.055241f, 0.6940287f, 0.4289981f, 0.4165981f, 0.5439591f, 0.5308562f,
     0.1666602f, -0.5004129f, -1.169013f, -0.8858431f, -0.5349347f, -0.388539f, -0.4720909f, -0.5660864f,
     -0.3933499f, 0.1433181f, 0.8567343f, 1.387354f, 1.450958f, 1.037861f, 0.415038f},
    {kSinusoidal.grads[0],
     {0.9584894f, 0.8662464f, 0.3665942f, -0.305473f, -0.8338715f, -0.9700872f, -0.6500556f, -0.02429289f,
      0.6128953f, 0.9618292f, 0.8583998f, 0.3512515f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
      0.0f, 0.0f}}};

// ---- SequencePool: x = seq([3, 4, 2]). Without a mask: x.mean(1), x[:, 0], x[:, -1], x.amax(1).
const Reference kPoolMean{Shape{3, 2},
                          {0.6441664f, 0.6884652f, -0.5896803f, -0.6782894f, 0.5158024f, 0.6458077f},
                          {{0.07388005f, 0.2103677f, 0.07388005f, 0.2103677f, 0.07388005f, 0.2103677f, 0.07388005f,
                            0.2103677f, 0.2479162f, 0.1688658f, 0.2479162f, 0.1688658f, 0.2479162f, 0.1688658f,
                            0.2479162f, 0.1688658f, 0.01039517f, -0.1529645f, 0.01039517f, -0.1529645f, 0.01039517f,
                            -0.1529645f, 0.01039517f, -0.1529645f}}};
const Reference kPoolFirst{Shape{3, 2},
                           {0.09983341f, 0.4528863f, 0.08150215f, -0.2844257f, -0.2601575f, 0.1066117f},
                           {{0.2955202f, 0.841471f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.9916648f, 0.6754632f, 0.0f,
                             0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.04158066f, -0.6118579f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                             0.0f}}};
const Reference kPoolLast{Shape{3, 2},
                          {0.7322314f, 0.4363991f, -0.8431877f, -0.5917156f, 0.9264155f, 0.7275733f},
                          {{0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.2955202f, 0.841471f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.9916648f, 0.6754632f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.04158066f,
                            -0.6118579f}}};
const Reference kPoolMax{Shape{3, 2},
                         {0.9999576f, 0.935616f, 0.08150215f, -0.2844257f, 0.938f, 0.9998717f},
                         {{0.0f, 0.0f, 0.0f, 0.841471f, 0.2955202f, 0.0f, 0.0f, 0.0f, 0.9916648f, 0.6754632f, 0.0f,
                           0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.04158066f, -0.6118579f, 0.0f,
                           0.0f}}};
// With the mask m = [[1, 1, 1, 0], [0, 1, 1, 0], [1, 1, 1, 1]] (right-padded, left-padded, full):
// mean (x * m[..., None]).sum(1) / m.sum(1, keepdim=True); first x[arange(3), [0, 1, 0]];
// last x[arange(3), [2, 2, 3]].
const std::vector<float> kMask{1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1};
const Reference kPoolMeanMasked{Shape{3, 2},
                                {0.6148114f, 0.7724873f, -0.7985178f, -0.9185082f, 0.5158024f, 0.6458077f},
                                {{0.09850674f, 0.2804903f, 0.09850674f, 0.2804903f, 0.09850674f, 0.2804903f, 0.0f, 0.0f,
                                  0.0f, 0.0f, 0.4958324f, 0.3377316f, 0.4958324f, 0.3377316f, 0.0f, 0.0f, 0.01039517f,
                                  -0.1529645f, 0.01039517f, -0.1529645f, 0.01039517f, -0.1529645f, 0.01039517f,
                                  -0.1529645f}}};
const Reference kPoolFirstMasked{Shape{3, 2},
                                 {0.09983341f, 0.4528863f, -0.6118579f, -0.856478f, -0.2601575f, 0.1066117f},
                                 {{0.2955202f, 0.841471f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.9916648f,
                                   0.6754632f, 0.0f, 0.0f, 0.0f, 0.0f, 0.04158066f, -0.6118579f, 0.0f, 0.0f, 0.0f, 0.0f,
                                   0.0f, 0.0f}}};
const Reference kPoolLastMasked{Shape{3, 2},
                                {0.9999576f, 0.9289597f, -0.9851778f, -0.9805384f, 0.9264155f, 0.7275733f},
                                {{0.0f, 0.0f, 0.0f, 0.0f, 0.2955202f, 0.841471f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                                  0.9916648f, 0.6754632f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.04158066f,
                                  -0.6118579f}}};

// ---- CrossEntropy over positions: logits = seq([2, 3, 5], 0.37, 0.1, 2.0), targets t [2, 3];
// F.cross_entropy(logits.reshape(-1, 5), t.reshape(-1), ...) with the options each says.
// t = [[1, -100, 4], [0, 2, -100]], ignore_index=-100
const Reference kCeIgnored{
    Shape{},
    {2.161128f},
    {{0.004097816f, -0.06557753f, 0.01488082f, 0.02180238f, 0.0247965f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.02312343f,
      0.01417679f, 0.0109595f, 0.01106166f, -0.05932138f, -0.07139841f, 0.004816447f, 0.01002994f, 0.02029257f,
      0.03625946f, 0.01789931f, 0.02025711f, -0.05639068f, 0.01175065f, 0.006483609f, 0.0f, 0.0f, 0.0f, 0.0f,
      0.0f}}};
// t = [[1, 4, 4], [0, 2, 3]], ignore_index=4 (a padding token's class), label_smoothing=0.1
const Reference kCeIgnoredClassSmoothed{
    Shape{},
    {2.342426f},
    {{0.002620214f, -0.05966713f, 0.01340322f, 0.02032478f, 0.0233189f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
      0.0f, 0.0f, 0.0f, -0.06548801f, 0.003338846f, 0.008552342f, 0.01881496f, 0.03478185f, 0.01642171f,
      0.01877951f, -0.05048028f, 0.01027305f, 0.005006008f, 0.03535412f, 0.0162485f, 0.007752548f, -0.06228942f,
      0.002934254f}}};
// t as in kCeIgnored, weight=[1, 2, 0.5, 1, 3], ignore_index=-100
const Reference kCeIgnoredWeighted{
    Shape{},
    {2.055151f},
    {{0.005043466f, -0.08071081f, 0.01831486f, 0.0268337f, 0.03051877f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.04268941f,
      0.02617254f, 0.02023292f, 0.02042153f, -0.1095164f, -0.04393749f, 0.002963968f, 0.006172273f, 0.01248773f,
      0.02231351f, 0.005507481f, 0.006232957f, -0.01735098f, 0.003615586f, 0.001994957f, 0.0f, 0.0f, 0.0f, 0.0f,
      0.0f}}};

}  // namespace

Q_DECLARE_METATYPE(const Reference*)
Q_DECLARE_METATYPE(Ints)
Q_DECLARE_METATYPE(std::vector<int>)

class TestOpsSequence : public QObject {
    Q_OBJECT
private slots:
    // ---- Permute
    void permuteMatchesPyTorch()
    {
        expectReference("Permute", {{"dims", Ints{2, 1}}}, {xFor(Shape{2, 3, 4})}, {}, kPermuteSwap);
        expectReference("Permute", {{"dims", Ints{2, 1, 3}}}, {xFor(Shape{2, 3, 2, 2})}, {}, kPermuteHeads);
    }
    // The primitive against the definition: row copies, the tiled transpose with sizes that are
    // no multiple of its tile, size-1 dimensions, rank 8; writing, then adding onto what is there.
    void permutePrimitiveMatchesTheDefinition_data()
    {
        QTest::addColumn<Ints>("shape");
        QTest::addColumn<std::vector<int>>("perm");
        QTest::newRow("[3,70,45] last two swapped") << Ints{3, 70, 45} << std::vector<int>{0, 2, 1};
        QTest::newRow("[2,33,5,37] heads first") << Ints{2, 33, 5, 37} << std::vector<int>{0, 2, 1, 3};
        QTest::newRow("[2,33,5,37] rotated") << Ints{2, 33, 5, 37} << std::vector<int>{0, 3, 1, 2};
        QTest::newRow("[1,40,1,65] with size-1 dims") << Ints{1, 40, 1, 65} << std::vector<int>{2, 3, 0, 1};
        QTest::newRow("[4,5] identity") << Ints{4, 5} << std::vector<int>{0, 1};
        QTest::newRow("rank 8") << Ints{2, 3, 1, 2, 3, 2, 4, 3} << std::vector<int>{7, 0, 5, 2, 6, 1, 4, 3};
    }
    void permutePrimitiveMatchesTheDefinition()
    {
        QFETCH(Ints, shape);
        QFETCH(std::vector<int>, perm);
        const i64 n = std::accumulate(shape.begin(), shape.end(), i64{1}, std::multiplies<>());
        std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n), std::numeric_limits<float>::quiet_NaN());
        for (i64 i = 0; i < n; ++i) x[std::size_t(i)] = float(i) * 0.5f - 3.0f;
        const std::vector<float> want = naivePermute(x, shape, perm);
        cpuBackend().permute({shape, perm}, x.data(), y.data(), GradWrite::Overwrite);
        QVERIFY(y == want);
        cpuBackend().permute({shape, perm}, x.data(), y.data(), GradWrite::Accumulate);
        for (std::size_t i = 0; i < y.size(); ++i) QCOMPARE(y[i], 2.0f * want[i]);
    }
    void permuteErrorsNameDims()
    {
        const std::vector<TensorSpec> x{{Shape{2, 3, 4}}};
        EXPECT_REFUSED(refusal("Permute", {{"dims", Ints{1}}}, x), "dims", "the input has 2 besides the batch");
        EXPECT_REFUSED(refusal("Permute", {{"dims", Ints{1, 1}}}, x), "dims", "once");
        EXPECT_REFUSED(refusal("Permute", {{"dims", Ints{2, 3}}}, x), "dims", "1..2");
    }

    // ---- MatMul
    void matMulMatchesPyTorch()
    {
        expectReference("MatMul", {}, {xFor(Shape{2, 2, 3}), secondFor(Shape{2, 3, 4})}, {}, kMatMul);
    }
    void matMulErrorsSayWhatMustMatch()
    {
        const auto says = [](std::vector<TensorSpec> in, const char* words) {
            const QString message = refusal("MatMul", {}, in).message;
            return message.contains(words) ? QString() : message;
        };
        QCOMPARE(says({{Shape{2, 3, 4}}, {Shape{2, 5, 6}}}, "needs them equal"), QString());
        QCOMPARE(says({{Shape{2, 2, 3, 4}}, {Shape{2, 3, 4, 5}}}, "before the last two (batch first) must be equal"), QString());
        QCOMPARE(says({{Shape{2, 3, 4}}, {Shape{2, 2, 4, 5}}}, "same rank"), QString());
    }

    // ---- Slice
    void sliceMatchesPyTorch()
    {
        expectReference("Slice", {{"start", i64{1}}, {"end", i64{-2}}}, {xFor(Shape{2, 3, 6})}, {}, kSliceLast);
        expectReference("Slice", {{"axis", i64{1}}, {"start", i64{2}}}, {xFor(Shape{2, 4, 3})}, {}, kSliceTokens);
    }
    // Three Slices of one [B, T, 3C] projection are its split into queries, keys and values.
    void threeSlicesSplitAProjection()
    {
        const Tensor x = xFor(Shape{2, 3, 9});
        for (i64 part = 0; part < 3; ++part) {
            const Tensor y = runForward("Slice", {{"start", part * 3}, {"end", part == 2 ? i64{0} : part * 3 + 3}}, {x}, {});
            QCOMPARE(y.shape(), Shape({2, 3, 3}));
            for (i64 i = 0; i < y.numel(); ++i) QCOMPARE(y.data<float>()[i], x.data<float>()[(i / 3) * 9 + part * 3 + i % 3]);
        }
    }
    void sliceErrorsNameTheAttribute()
    {
        const std::vector<TensorSpec> x{{Shape{2, 3, 6}}};
        EXPECT_REFUSED(refusal("Slice", {{"axis", i64{0}}}, x), "axis", "batch");
        EXPECT_REFUSED(refusal("Slice", {{"axis", i64{3}}}, x), "axis", "outside");
        EXPECT_REFUSED(refusal("Slice", {{"start", i64{6}}}, x), "start", "size 6");
        EXPECT_REFUSED(refusal("Slice", {{"start", i64{-7}}}, x), "start", "size 6");
        EXPECT_REFUSED(refusal("Slice", {{"end", i64{7}}}, x), "end", "past");
        EXPECT_REFUSED(refusal("Slice", {{"start", i64{3}}, {"end", i64{2}}}, x), "end", "empty");
    }

    // ---- PositionalEncoding
    void sinusoidalTableIsTheFormula()
    {
        const Op* op = OpRegistry::builtin().find("PositionalEncoding");
        Attrs attrs;
        QVERIFY(normaliseAttrs(op->attrSpecs(), {{"max_length", i64{6}}}, attrs).empty());
        const std::vector<TensorSpec> in{{Shape{2, 3, 4}}};
        const std::vector<ParamSpec> params = op->params(attrs, in);
        QCOMPARE(params.size(), std::size_t(1));
        QCOMPARE(params[0].name, std::string("pe"));
        QCOMPARE(params[0].shape, Shape({6, 4}));
        QVERIFY(!params[0].trainable);
        Tensor pe = Tensor::empty(params[0].shape);
        initialise(params[0].init, pe.data<float>(), pe.numel(), 1);
        expectClose(pe, kSinusoids, "pe");
        expectReference("PositionalEncoding", {{"max_length", i64{6}}}, {xFor(Shape{2, 3, 4})}, {pe}, kSinusoidal);
    }
    void learnedTableMatchesPyTorch()
    {
        expectReference("PositionalEncoding", {{"kind", std::string("learned")}, {"max_length", i64{6}}},
                        {xFor(Shape{2, 3, 4})}, {secondFor(Shape{6, 4})}, kLearned);
    }
    // The learned table starts normal(0, 0.02): InitKind::Normal's standard deviation.
    void learnedTableStartsSmall()
    {
        const Op* op = OpRegistry::builtin().find("PositionalEncoding");
        Attrs attrs;
        QVERIFY(normaliseAttrs(op->attrSpecs(), {{"kind", std::string("learned")}}, attrs).empty());
        const std::vector<TensorSpec> in{{Shape{2, 3, 64}}};
        const ParamSpec p = op->params(attrs, in).at(0);
        QCOMPARE(p.name, std::string("weight"));
        QCOMPARE(p.shape, Shape({512, 64}));
        QVERIFY(p.trainable);
        std::vector<float> w(std::size_t(p.shape.numel()));
        initialise(p.init, w.data(), i64(w.size()), 42);
        double sum = 0, squares = 0;
        for (float v : w) sum += v, squares += double(v) * v;
        const double mean = sum / double(w.size()), stddev = std::sqrt(squares / double(w.size()) - mean * mean);
        QVERIFY2(std::abs(mean) < 1e-3 && std::abs(stddev - 0.02) < 1e-3, qPrintable(QString("mean %1, std %2").arg(mean).arg(stddev)));
    }
    void longerThanMaxLengthIsRefused()
    {
        EXPECT_REFUSED(refusal("PositionalEncoding", {{"max_length", i64{4}}}, {{Shape{2, 5, 8}}}), "max_length",
                       "5 tokens, more than max_length 4");
        QVERIFY(refusal("PositionalEncoding", {{"max_length", i64{5}}}, {{Shape{2, 5, 8}}}).message.isEmpty());
        QVERIFY(refusal("PositionalEncoding", {}, {{Shape{2, 8}}}).message.contains("rank 3"));
    }

    // ---- SequencePool
    void sequencePoolMatchesPyTorch_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("masked");
        QTest::addColumn<const Reference*>("ref");
        QTest::newRow("mean") << "mean" << false << &kPoolMean;
        QTest::newRow("first") << "first" << false << &kPoolFirst;
        QTest::newRow("last") << "last" << false << &kPoolLast;
        QTest::newRow("max") << "max" << false << &kPoolMax;
        QTest::newRow("mean, masked") << "mean" << true << &kPoolMeanMasked;
        QTest::newRow("first, masked") << "first" << true << &kPoolFirstMasked;
        QTest::newRow("last, masked") << "last" << true << &kPoolLastMasked;
    }
    void sequencePoolMatchesPyTorch()
    {
        QFETCH(QString, mode);
        QFETCH(bool, masked);
        QFETCH(const Reference*, ref);
        std::vector<Tensor> inputs{xFor(Shape{3, 4, 2})};
        if (masked) inputs.push_back(floats(Shape{3, 4}, kMask));
        expectReference("SequencePool", {{"mode", mode.toStdString()}}, inputs, {}, *ref);
    }
    // A sample whose tokens are all padding pools to zeros (no 0/0) and takes no gradient.
    void allPaddingPoolsToZero()
    {
        for (const char* mode : {"mean", "first", "last"}) {
            OpRun run("SequencePool", {{"mode", std::string(mode)}}, {xFor(Shape{2, 3, 2}), floats(Shape{2, 3}, {1, 0, 1, 0, 0, 0})});
            const Tensor y = run.forward();
            const Tensor dx = run.backward(dyFor(y))[0];
            for (i64 i = 2; i < 4; ++i) QCOMPARE(y.data<float>()[i], 0.0f);
            for (i64 i = 6; i < 12; ++i) QCOMPARE(dx.data<float>()[i], 0.0f);
        }
    }
    void sequencePoolErrors()
    {
        EXPECT_REFUSED(refusal("SequencePool", {{"mode", std::string("max")}}, {{Shape{2, 3, 4}}, {Shape{2, 3}}}), "mode",
                       "takes no mask");
        QVERIFY(refusal("SequencePool", {}, {{Shape{2, 3, 4}}, {Shape{2, 4}}}).message.contains("expected [2, 3]"));
        QVERIFY(refusal("SequencePool", {}, {{Shape{2, 12}}}).message.contains("rank 3"));
    }

    // ---- CrossEntropy over positions, with ignore_index
    void crossEntropyOverPositionsMatchesPyTorch()
    {
        const Tensor logits = seq(Shape{2, 3, 5}, 0.37, 0.1, 2.0);
        const Tensor padded = targets(Shape{2, 3}, {1, -100, 4, 0, 2, -100});
        expectReference("CrossEntropy", {}, {logits, padded}, {}, kCeIgnored);  // -100 is the default
        expectReference("CrossEntropy", {{"ignore_index", i64{4}}, {"label_smoothing", 0.1}},
                        {logits, targets(Shape{2, 3}, {1, 4, 4, 0, 2, 3})}, {}, kCeIgnoredClassSmoothed);
        expectReference("CrossEntropy", {{"class_weights", std::vector<double>{1, 2, 0.5, 1, 3}}}, {logits, padded},
                        {floats(Shape{5}, {1, 2, 0.5f, 1, 3})}, kCeIgnoredWeighted);
    }
    // Every row ignored: loss 0 and no gradient, not 0/0.
    void crossEntropyAllIgnored()
    {
        OpRun run("CrossEntropy", {}, {seq(Shape{2, 2, 3}, 0.37, 0.1), targets(Shape{2, 2}, {-100, -100, -100, -100})});
        const Tensor y = run.forward();
        const Tensor dx = run.backward(dyFor(y))[0];
        QCOMPARE(y.data<float>()[0], 0.0f);
        for (i64 i = 0; i < dx.numel(); ++i) QCOMPARE(dx.data<float>()[i], 0.0f);
    }
    // A target outside the classes is still an error unless it is the ignore index.
    void crossEntropyTargetOutsideTheClasses()
    {
        const Tensor logits = seq(Shape{2, 2, 3}, 0.37, 0.1);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, runForward("CrossEntropy", {}, {logits, targets(Shape{2, 2}, {0, 3, 1, 2})}, {}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range,
                                 runForward("CrossEntropy", {{"ignore_index", i64{-1}}}, {logits, targets(Shape{2, 2}, {0, -100, 1, 2})}, {}));
        runForward("CrossEntropy", {{"ignore_index", i64{-1}}}, {logits, targets(Shape{2, 2}, {0, -1, 1, 2})}, {});
    }
    void crossEntropyShapeErrors()
    {
        QVERIFY(refusal("CrossEntropy", {}, {{Shape{2, 3, 5}}, {Shape{2}, DType::I64}}).message.contains("expected [2, 3]"));
        QVERIFY(refusal("CrossEntropy", {}, {{Shape{2, 3, 5}}, {Shape{6}, DType::I64}}).message.contains("expected [2, 3]"));
        EXPECT_REFUSED(refusal("CrossEntropy", {{"class_weights", std::vector<double>{1, 2}}}, {{Shape{2, 3, 5}}, {Shape{2, 3}, DType::I64}}),
                       "class_weights", "5 classes");
    }

    // ---- Through the executor in training: tokens -> Embedding -> PositionalEncoding (learned)
    // -> h; Permute(h) [B, C, T] x h [B, T, C] -> MatMul [B, C, C] -> CrossEntropy over C
    // positions with padded labels. h feeds two nodes, so its gradient is written by one and
    // added by the other (the executor's Overwrite for fresh buffers). The gradient of every
    // parameter against central differences of the executor's own loss.
    void sequenceGraphGradientsMatchFiniteDifferences()
    {
        Graph g;
        g.inputs = {{"tokens", Shape{3}, DType::I64}, {"labels", Shape{4}, DType::I64}};
        g.add("emb", "Embedding", {"tokens"}, {{"num_embeddings", i64{5}}, {"embedding_dim", i64{4}}});
        g.add("h", "PositionalEncoding", {"emb"}, {{"kind", std::string("learned")}, {"max_length", i64{3}}});
        g.add("ht", "Permute", {"h"}, {{"dims", Ints{2, 1}}});
        g.add("scores", "MatMul", {"ht", "h"});
        g.add("loss", "CrossEntropy", {"scores", "labels"});
        Executor ex(checkGraph(g, 2), cpuBackend());
        for (Parameter& p : ex.parameters()) {
            Tensor v = seq(p.value.shape(), 0.61, 0.2, 0.5);
            std::copy_n(v.data<float>(), v.numel(), p.value.data<float>());
        }
        ex.setInput("tokens", indices(Shape{2, 3}, {0, 3, 4, 2, 2, 1}));
        ex.setInput("labels", indices(Shape{2, 4}, {1, -100, 3, 0, 2, 2, -100, -100}));
        const auto loss = [&] {
            ex.forward();
            return double(ex.loss());
        };
        loss();
        ex.zeroGrad();
        ex.backward();
        for (Parameter& p : ex.parameters()) {
            QVERIFY(p.trainable);
            for (i64 i = 0; i < p.value.numel(); ++i) {
                float& w = p.value.data<float>()[i];
                const float kept = w;
                w = kept + 1e-2f;
                const double up = loss();
                w = kept - 1e-2f;
                const double down = loss();
                w = kept;
                const double numeric = (up - down) / 2e-2, analytic = p.grad.data<float>()[i];
                QVERIFY2(std::abs(analytic - numeric) <= 2e-3 + 2e-2 * std::abs(numeric),
                         qPrintable(QString("%1[%2]: %3, finite differences %4").arg(QString::fromStdString(p.name)).arg(i).arg(analytic).arg(numeric)));
            }
        }
    }

    // ---- The layers around them take [batch, tokens, channels]: over the last axis.
    void layersTakeTokens()
    {
        const std::vector<TensorSpec> tokens{{Shape{2, 5, 8}}};
        for (const char* type : {"LayerNorm", "GELU", "Dropout"}) QCOMPARE(refusal(type, {}, tokens).message, QString());
        QCOMPARE(refusal("Linear", {{"out_features", i64{3}}}, tokens).message, QString());
        const Op* linear = OpRegistry::builtin().find("Linear");
        Attrs attrs;
        QVERIFY(normaliseAttrs(linear->attrSpecs(), {{"out_features", i64{3}}}, attrs).empty());
        QCOMPARE(linear->inferOutput(attrs, tokens).shape, Shape({2, 5, 3}));
        // Linear on tokens is Linear on their rows: the same weights give the same rows.
        const Tensor x = xFor(Shape{2, 5, 8}), w = secondFor(Shape{3, 8}), b = secondFor(Shape{3});
        const Tensor y3 = runForward("Linear", {{"out_features", i64{3}}}, {x}, {w, b});
        Tensor rows = Tensor::empty(Shape{10, 8});
        std::copy_n(x.data<float>(), 80, rows.data<float>());
        const Tensor y2 = runForward("Linear", {{"out_features", i64{3}}}, {rows}, {w, b});
        QVERIFY(std::equal(y2.data<float>(), y2.data<float>() + 30, y3.data<float>()));
    }
};

QTEST_APPLESS_MAIN(TestOpsSequence)
#include "tst_ops_sequence.moc"

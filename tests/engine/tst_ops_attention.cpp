// MultiHeadAttention and the fused attention primitive (backend.h, attentionForward/Backward).
//
// 1. The op against PyTorch's nn.MultiheadAttention(C, heads, bias, batch_first=True), called
//    as m(x, x, x, need_weights=False, attn_mask=..., key_padding_mask=...), forward and every
//    gradient of sum(y * dy), computed by PyTorch 1.13 (Debian's python3-torch) on the CPU in
//    float32 and printed with 7 significant digits:
//      seq = lambda shape, a, b, scale=1.0: torch.tensor([scale * math.sin(a * i + b) for i in
//                range(math.prod(shape))], dtype=torch.float32).reshape(shape).requires_grad_()
//      m.in_proj_weight = seq([3C, C], 0.3, 0.2, 0.5); m.in_proj_bias = seq([3C], 0.5, 0.1, 0.5)
//      m.out_proj.weight = seq([C, C], 0.9, 0.4, 0.5); m.out_proj.bias = seq([C], 1.1, 0.7, 0.5)
//      y, _ = m(x, x, x, ...); (y * seq(y.shape, 0.7, 0.3)).sum().backward()
//      then x.grad and each parameter's grad in m.parameters() order.
//    Tolerance 1e-5 + 1e-5 relative: float32 sums of a few dozen terms of order one in another
//    order, and the printed digits, differ by ~1e-6; a wrong weight or mask moves a value by ~0.1.
//    PyTorch's mask is boolean (True = hidden), ours a float key-padding mask (0 = padding).
// 2. The primitive against a naive softmax(q k^T scale) v in double, at 200 tokens (no
//    multiple of the 64-token blocks), strided views, every mask and dropout.
// 3. Nothing of size tokens x tokens: the op's saved buffers and workspace grow linearly, and
//    the primitive's largest allocation stays a few blocks.
// 4. The same bits with 1 thread or 2.
#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <random>

#include "backend/cpu/cpu_backend.h"
#include "gradcheck.h"
#include "op_run.h"
#include "ops/init.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

// The largest single allocation made while `watching` is set, by any thread (section 3).
namespace {
std::atomic<bool> watching{false};
std::atomic<std::size_t> largestAllocation{0};
}  // namespace

void* operator new(std::size_t bytes)
{
    if (watching.load(std::memory_order_relaxed)) {
        std::size_t seen = largestAllocation.load(std::memory_order_relaxed);
        while (bytes > seen && !largestAllocation.compare_exchange_weak(seen, bytes)) {
        }
    }
    if (void* p = std::malloc(bytes ? bytes : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using i64 = std::int64_t;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// ---- causal, 2 heads: x seq([2, 5, 4]); attn_mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
const Reference kCausal{
    Shape{2, 5, 4},
    {-0.6438897f, 1.848534f, -1.356447f, 0.9073482f, -0.7992827f, 2.017206f, -1.503571f, 1.002545f, -0.5731064f,
     1.649297f, -1.069897f, 0.5926516f, -0.2825341f, 1.230241f, -0.6088847f, 0.1848752f, -0.1502165f, 0.9805304f,
     -0.2933416f, -0.1313459f, -1.104578f, 2.458239f, -1.989275f, 1.432631f, -0.7020416f, 1.821071f, -1.24904f,
     0.742175f, -0.3262537f, 1.30941f, -0.7071556f, 0.2819568f, -0.07464781f, 0.8478479f, -0.1309422f,
     -0.2899295f, -0.2061476f, 1.076347f, -0.4092601f, -0.01926115f},
    {{-0.00482356f, 0.04731929f, 0.09523524f, 0.1346441f, -0.07892406f, -0.04662823f, -0.01016724f, 0.02720196f,
      0.1095666f, 0.05643878f, -0.001730594f, -0.05974538f, 0.05134441f, 0.07969168f, 0.1009203f, 0.1131341f,
      0.1336152f, 0.07129771f, 0.0026114f, -0.06630816f, -0.2348566f, -0.2108119f, -0.1679361f, -0.1100589f,
      0.09128299f, 0.05735007f, 0.01829423f, -0.02239577f, 0.02788612f, 0.02910647f, 0.02772683f, 0.02387043f,
      0.0280462f, 0.02936774f, 0.02806596f, 0.02425712f, 0.02571899f, 0.01060863f, -0.005449355f, -0.02102056f},
     {-0.55417f, -0.6275668f, -0.6160253f, -0.5211078f, 0.2975233f, 0.3170674f, 0.2936979f, 0.2305777f,
      0.2469624f, 0.2763027f, 0.2682467f, 0.2238847f, 0.08375055f, 0.09675314f, 0.09666067f, 0.08348561f,
      0.4445184f, 0.5114252f, 0.509113f, 0.4378947f, 0.6981909f, 0.8471196f, 0.8813946f, 0.7963771f, 0.05180622f,
      0.07120014f, 0.08095746f, 0.07975758f, -0.1641243f, -0.1888304f, -0.1879791f, -0.1616858f, 0.1968038f,
      0.1783384f, 0.1357357f, 0.07476176f, 0.2176407f, 0.2212662f, 0.1949444f, 0.1422377f, 0.08995568f,
      0.1172563f, 0.1286868f, 0.1227001f, -0.1278835f, -0.09360202f, -0.04665194f, 0.006612271f},
     {-0.197467f, 0.1658441f, 0.1904678f, 0.06101388f, 2.782326e-08f, 1.490116e-08f, 9.313226e-09f,
      2.514571e-08f, -0.102696f, -0.01659673f, 0.08206255f, 0.1186186f},
     {-1.147552f, -1.402223f, -0.02255414f, 1.415235f, -1.311626f, -1.472764f, -0.1510792f, 1.247583f,
      -0.8588218f, -0.8506405f, -0.2085493f, 0.4931735f, -0.002099955f, 0.1715527f, -0.1679354f, -0.4931835f},
     {0.3291884f, 0.8636585f, 0.9919364f, 0.6536912f}}};

// ---- key padding, 4 heads: x seq([2, 6, 8]); key_padding_mask = torch.tensor([[1,1,1,1,0,0], [1,0,1,1,1,0]]) == 0
const Reference kPadding{
    Shape{2, 6, 8},
    {0.4125667f, 0.9224818f, 0.5591113f, -0.2792346f, -0.7817376f, -0.5286331f, 0.1514071f, 0.5812408f,
     1.872304f, 0.7430329f, -1.118961f, -2.141501f, -1.36949f, 0.6185141f, 2.134896f, 1.84741f, 0.6116283f,
     0.9305136f, 0.3698221f, -0.5175753f, -0.8824381f, -0.4128149f, 0.3930237f, 0.7593983f, 1.679295f,
     0.7201043f, -0.9538497f, -1.917681f, -1.262278f, 0.5251379f, 1.914074f, 1.672111f, 0.7200581f, 0.957992f,
     0.2948254f, -0.6363024f, -0.9518971f, -0.3785987f, 0.5041136f, 0.8603455f, 1.610542f, 0.6961812f,
     -0.9142048f, -1.845522f, -1.214127f, 0.5115646f, 1.849408f, 1.607005f, 1.251985f, 1.222256f, 0.08442853f,
     -1.156556f, -1.374494f, -0.3725201f, 0.9341067f, 1.377441f, -0.1001888f, -0.7154782f, -0.9210435f,
     -0.4421828f, 0.5001576f, 1.194f, 0.9654444f, -0.1509511f, 1.340383f, 1.220859f, -0.005668901f, -1.264781f,
     -1.416075f, -0.3148859f, 1.045811f, 1.455717f, -0.07122096f, -0.4696819f, -0.6509501f, -0.359356f,
     0.3308399f, 0.9051644f, 0.7833345f, -0.08368874f, 1.47272f, 1.16727f, -0.2032072f, -1.451538f, -1.445764f,
     -0.1642518f, 1.258776f, 1.564199f, -0.1386575f, -0.3795863f, -0.4738939f, -0.2340269f, 0.3062719f,
     0.7499435f, 0.6190447f, -0.1283596f},
    {{0.9473984f, 0.5903573f, 0.180581f, -0.2453258f, -0.6493185f, -0.9953095f, -1.252392f, -1.397603f,
      -0.03147838f, -0.4390871f, -0.8074737f, -1.103731f, -1.301395f, -1.38281f, -1.340702f, -1.178833f,
      1.348196f, 1.267833f, 1.074219f, 0.7846479f, 0.4249867f, 0.02736272f, -0.3727055f, -0.7394812f, 0.4881089f,
      0.6523335f, 0.758287f, 0.796505f, 0.7635735f, 0.6624345f, 0.502122f, 0.2969564f, -0.1754063f, -0.1084625f,
      -0.03183003f, 0.04764573f, 0.1228654f, 0.1871099f, 0.2346404f, 0.2612112f, -0.5035756f, -0.3052871f,
      -0.07972817f, 0.1529526f, 0.3719706f, 0.5577616f, 0.6937293f, 0.7677283f, 0.8474604f, 0.575209f, 0.251576f,
      -0.09452964f, -0.4321913f, -0.7312465f, -0.9649817f, -1.112518f, 0.1074402f, 0.1905258f, 0.2565922f,
      0.299738f, 0.3161092f, 0.3042432f, 0.2652001f, 0.2024675f, 0.262304f, 0.4894802f, 0.6729326f, 0.7962741f,
      0.8484867f, 0.8249065f, 0.7276397f, 0.5653753f, -0.3241335f, -0.6483264f, -0.914606f, -1.099187f,
      -1.18558f, -1.166069f, -1.042397f, -0.8256108f, -0.05152055f, 0.5826842f, 1.16484f, 1.642943f, 1.974288f,
      2.129275f, 2.094061f, 1.871789f, -0.4224689f, -0.2974759f, -0.1459102f, 0.01868911f, 0.181619f, 0.3283255f,
      0.4457036f, 0.5232683f},
     {0.6083576f, 0.4210637f, 0.1767808f, -0.09142847f, -0.3472634f, -0.5560978f, -0.6896672f, -0.7298931f,
      0.06126042f, -0.02952622f, -0.1163165f, -0.1873639f, -0.2330525f, -0.2471985f, -0.2278874f, -0.1777328f,
      0.9942545f, 0.9670138f, 0.8088924f, 0.5412912f, 0.2004287f, -0.1675609f, -0.5128716f, -0.7887679f,
      0.5320661f, 0.5728469f, 0.5360957f, 0.4267863f, 0.2597135f, 0.05748963f, -0.1525151f, -0.3418777f,
      -0.189162f, -0.03079442f, 0.131741f, 0.276446f, 0.3837353f, 0.4390878f, 0.4350119f, 0.372059f, 0.4166962f,
      0.4331732f, 0.3910223f, 0.2959483f, 0.1608192f, 0.003923871f, -0.1535025f, -0.2901531f, -0.2509568f,
      0.1465777f, 0.5242733f, 0.8310113f, 1.025276f, 1.080774f, 0.9899943f, 0.7652236f, -0.1530042f,
      -0.07048111f, 0.02158131f, 0.1107228f, 0.1848785f, 0.2340118f, 0.2514726f, 0.2348978f, -1.034688f,
      -0.976809f, -0.7867231f, -0.4901579f, -0.1272521f, 0.2528766f, 0.5987797f, 0.8636407f, 1.794054f,
      1.746767f, 1.463063f, 0.9813401f, 0.3667978f, -0.2973889f, -0.9213254f, -1.420565f, 0.4009136f,
      -0.3694124f, -1.08974f, -1.662577f, -2.010391f, -2.086108f, -1.879481f, -1.418475f, -0.2409348f,
      0.1893402f, 0.5939889f, 0.918244f, 1.118219f, 1.166848f, 1.05755f, 0.8051177f, 1.374502f, 1.308129f,
      1.064708f, 0.6771836f, 0.1980054f, -0.3079719f, -0.7722666f, -1.132039f, -0.4325767f, -0.4196707f,
      -0.3499643f, -0.2328919f, -0.08429863f, 0.07570408f, 0.2254606f, 0.344702f, -0.02612936f, 0.1942353f,
      0.3883111f, 0.5298309f, 0.5996404f, 0.5882916f, 0.4973201f, 0.3390387f, -0.2835375f, 0.1342977f,
      0.5339563f, 0.8613463f, 1.072157f, 1.137857f, 1.049553f, 0.8191965f, -1.992865f, -1.330229f, -0.4875531f,
      0.4211109f, 1.272779f, 1.952183f, 2.367368f, 2.462141f, -1.650625f, -1.541761f, -1.224227f, -0.7409988f,
      -0.1574802f, 0.4473525f, 0.9916382f, 1.401711f, -1.320524f, -1.712978f, -1.873588f, -1.780617f, -1.446648f,
      -0.9168813f, -0.2630194f, 0.4264412f, 0.0171409f, -0.1104835f, -0.2231545f, -0.3056226f, -0.3467262f,
      -0.3409019f, -0.2889381f, -0.197868f, 2.853376f, 2.403679f, 1.628654f, 0.6331997f, -0.4479557f, -1.468482f,
      -2.290257f, -2.802056f, 0.4483142f, 0.7721701f, 0.9915162f, 1.076666f, 1.016093f, 0.8179971f, 0.5091891f,
      0.1314648f, 0.7099206f, 1.039058f, 1.227564f, 1.249925f, 1.103115f, 0.8070026f, 0.4016666f, -0.05803324f,
      -0.9059738f, -0.6046644f, -0.2215163f, 0.1916129f, 0.5788081f, 0.8876644f, 1.076379f, 1.119412f},
     {1.493482f, 0.5876521f, -0.8196316f, -0.812713f, -1.399171f, 0.556473f, 2.663651f, 0.5594487f,
      -1.072884e-06f, 1.072884e-06f, 2.719462e-07f, -2.980232e-07f, -1.192093e-07f, -5.960464e-08f,
      3.604218e-07f, -6.072223e-07f, 0.2799116f, -3.242086f, -4.310537f, -2.116859f, 1.678815f, 4.203996f,
      3.547675f, 0.2065458f},
     {-0.7224171f, -1.414478f, 0.0387612f, -1.204025f, 1.735806f, 0.8952448f, -0.6530114f, 1.660738f, 1.186493f,
      -1.919172f, 0.4346597f, -0.3187671f, 0.5929552f, 1.305601f, -1.51393f, 0.07839239f, 2.537377f, -1.521249f,
      0.6261312f, 0.7164115f, -0.8287716f, 1.101913f, -1.662824f, -1.540823f, 2.694893f, -0.4078592f, 0.5231234f,
      1.414651f, -1.860714f, 0.3799781f, -1.029666f, -2.435365f, 1.584959f, 0.8973532f, 0.1740823f, 1.447557f,
      -2.017534f, -0.5206662f, 0.08776045f, -2.184517f, -0.2704067f, 1.780526f, -0.2568322f, 0.7996554f,
      -1.225476f, -1.176434f, 1.163911f, -0.9062567f, -1.998596f, 1.82629f, -0.5669546f, -0.224337f, 0.1429426f,
      -1.278906f, 1.692657f, 0.7982304f, -2.786814f, 1.013121f, -0.6104294f, -1.14282f, 1.444133f, -0.7798883f,
      1.425319f, 2.127297f},
     {-0.7584678f, 0.9147106f, 2.157686f, 2.385869f, 1.491939f, -0.103672f, -1.650525f, -2.42111f}}};

// ---- causal with key padding, 2 heads, bias=False: x seq([2, 5, 4]); the causal attn_mask;
// key_padding_mask = torch.tensor([[1,1,1,1,1], [1,1,0,1,0]]) == 0
const Reference kCausalPaddingNoBias{
    Shape{2, 5, 4},
    {-0.4532741f, 0.9190859f, -1.195122f, 1.224385f, -0.6034215f, 1.081742f, -1.3367f, 1.315653f, -0.367237f,
     0.6321839f, -0.7665955f, 0.742718f, -0.07815801f, 0.1521517f, -0.1947287f, 0.1970974f, 0.04767291f,
     -0.1012468f, 0.1339149f, -0.1389319f, -0.9139628f, 1.528791f, -1.82795f, 1.749668f, -0.5078599f, 0.7998282f,
     -0.9266453f, 0.8621258f, -0.4296151f, 0.6890881f, -0.806276f, 0.7569816f, -0.2072317f, 0.3304373f,
     -0.3854131f, 0.3608077f, -0.1442939f, 0.2567275f, -0.3161513f, 0.3102951f},
    {{-0.02253868f, 0.02773765f, 0.07553627f, 0.1165874f, -0.08278186f, -0.0490252f, -0.01088928f, 0.02821936f,
      0.1229419f, 0.06705416f, 0.005176717f, -0.05716315f, 0.06858397f, 0.1065468f, 0.1349921f, 0.1513789f,
      0.1278217f, 0.06008366f, -0.01302148f, -0.08496346f, -0.2448071f, -0.2267836f, -0.1885022f, -0.1333824f,
      0.1402021f, 0.09035172f, 0.03243052f, -0.02838759f, -0.02615456f, -0.01078592f, 0.005546199f, 0.02138289f,
      0.05036377f, 0.05507363f, 0.05486394f, 0.0497534f, 0.009733432f, -0.0007652086f, -0.01119549f, -0.02062572f},
     {-0.4434368f, -0.4780835f, -0.4480239f, -0.3573263f, 0.2591035f, 0.2611535f, 0.2278576f, 0.1637223f,
      0.2423619f, 0.2498915f, 0.2235995f, 0.1670444f, 0.07860621f, 0.08607357f, 0.08189128f, 0.06662538f,
      0.3021877f, 0.3641045f, 0.3767414f, 0.3383882f, 0.475646f, 0.5998024f, 0.6427783f, 0.5987571f, 0.01836816f,
      0.02873946f, 0.03522102f, 0.03693557f, -0.1735843f, -0.2052897f, -0.2092101f, -0.1848149f, 0.2256795f,
      0.2090109f, 0.1640536f, 0.09689233f, 0.2517623f, 0.2571701f, 0.2277711f, 0.1675443f, 0.1025753f, 0.130263f,
      0.1403201f, 0.1313856f, -0.1651327f, -0.1483278f, -0.1114474f, -0.05948315f},
     {-1.15465f, -1.422147f, 0.1610789f, 1.818382f, -1.053432f, -1.168714f, 0.2290636f, 1.513056f, -0.4567683f,
      -0.3656163f, 0.1893162f, 0.4961159f, 0.3547208f, 0.6094365f, 0.06053038f, -0.754155f}}};


// The seq() parameters of the references, in Op::params() order.
std::vector<Tensor> seqParams(i64 c, bool bias)
{
    std::vector<Tensor> p{seq(Shape{3 * c, c}, 0.3, 0.2, 0.5)};
    if (bias) p.push_back(seq(Shape{3 * c}, 0.5, 0.1, 0.5));
    p.push_back(seq(Shape{c, c}, 0.9, 0.4, 0.5));
    if (bias) p.push_back(seq(Shape{c}, 1.1, 0.7, 0.5));
    return p;
}

// ---- The primitive against the definition, in double ----------------------------------------

// q, k, v, o (and their gradients) as strided views: rows padded, batches apart, so a kernel
// that assumes a packed layout or writes outside its view is caught (the gaps hold a sentinel).
struct View {
    i64 rows, rowStride, batchStride;
    std::vector<float> data;
};
constexpr float kSentinel = 1234.5f;
View view(i64 batch, i64 rows, i64 width, std::mt19937_64& rng, bool random)
{
    View v{rows, width + 5, (width + 5) * rows + 7, {}};
    v.data.assign(std::size_t(batch * v.batchStride), kSentinel);
    std::normal_distribution<float> d(0.0f, 1.0f);
    for (i64 b = 0; b < batch; ++b)
        for (i64 r = 0; r < rows; ++r)
            for (i64 c = 0; c < width; ++c) v.data[std::size_t(b * v.batchStride + r * v.rowStride + c)] = random ? d(rng) : 0.5f;
    return v;
}

struct PrimitiveCase {
    i64 batch = 2, heads = 3, queries = 200, keys = 200, headDim = 16;
    bool causal = false, masked = false;
    float dropout = 0.0f;
};

// The naive attention and its gradients, element by element in double (backend.h's definition).
struct Naive {
    std::vector<double> o, lse, dq, dk, dv;  // packed [b][t][h][d] / [b][h][i]
};
Naive naive(const PrimitiveCase& p, const AttentionGeometry& g, const View& q, const View& k, const View& v,
            const std::vector<float>& mask, const View& dout, std::uint64_t seed)
{
    const i64 d = p.headDim, C = p.heads * d;
    Naive n;
    n.o.assign(std::size_t(p.batch * p.queries * C), 0.0);
    n.lse.assign(std::size_t(p.batch * p.heads * p.queries), -std::numeric_limits<double>::infinity());
    n.dq.assign(n.o.size(), 0.0);
    n.dk.assign(std::size_t(p.batch * p.keys * C), 0.0);
    n.dv.assign(n.dk.size(), 0.0);
    const auto at = [](const View& x, i64 b, i64 t, i64 col) { return double(x.data[std::size_t(b * x.batchStride + t * x.rowStride + col)]); };
    for (i64 b = 0; b < p.batch; ++b)
        for (i64 h = 0; h < p.heads; ++h)
            for (i64 i = 0; i < p.queries; ++i) {
                std::vector<double> s(std::size_t(p.keys), -std::numeric_limits<double>::infinity()), w(s.size(), 0.0),
                    z(s.size(), 0.0);
                double top = -std::numeric_limits<double>::infinity();
                for (i64 j = 0; j < p.keys; ++j) {
                    const bool allowed = (!p.causal || j <= i + p.keys - p.queries) && (!p.masked || mask[std::size_t(b * p.keys + j)] != 0);
                    if (!allowed) continue;
                    double dot = 0;
                    for (i64 c = 0; c < d; ++c) dot += at(q, b, i, h * d + c) * at(k, b, j, h * d + c);
                    s[std::size_t(j)] = dot * g.scale;
                    top = std::max(top, s[std::size_t(j)]);
                }
                if (top == -std::numeric_limits<double>::infinity()) continue;  // no key: o = 0, lse = -inf, no gradient
                double sum = 0;
                for (i64 j = 0; j < p.keys; ++j) sum += std::exp(s[std::size_t(j)] - top);
                n.lse[std::size_t((b * p.heads + h) * p.queries + i)] = top + std::log(sum);
                const std::uint64_t base = std::uint64_t(((b * p.heads + h) * p.queries + i) * p.keys);
                for (i64 j = 0; j < p.keys; ++j) {
                    w[std::size_t(j)] = std::exp(s[std::size_t(j)] - top) / sum;
                    const bool kept = hashUniform(seed, base + std::uint64_t(j)) >= p.dropout;
                    z[std::size_t(j)] = kept ? 1.0 / (1.0 - p.dropout) : 0.0;
                }
                double* oi = &n.o[std::size_t((b * p.queries + i) * C + h * d)];
                for (i64 j = 0; j < p.keys; ++j)
                    for (i64 c = 0; c < d; ++c) oi[c] += w[std::size_t(j)] * z[std::size_t(j)] * at(v, b, j, h * d + c);
                // dP_ij = z_ij dout_i . v_j; dS = P (dP - sum_j P dP); o = sum_j P z v.
                std::vector<double> dp(s.size(), 0.0);
                double delta = 0;
                for (i64 j = 0; j < p.keys; ++j) {
                    for (i64 c = 0; c < d; ++c) dp[std::size_t(j)] += at(dout, b, i, h * d + c) * at(v, b, j, h * d + c);
                    dp[std::size_t(j)] *= z[std::size_t(j)];
                    delta += w[std::size_t(j)] * dp[std::size_t(j)];
                }
                for (i64 j = 0; j < p.keys; ++j) {
                    const double ds = w[std::size_t(j)] * (dp[std::size_t(j)] - delta) * g.scale;
                    for (i64 c = 0; c < d; ++c) {
                        n.dq[std::size_t((b * p.queries + i) * C + h * d + c)] += ds * at(k, b, j, h * d + c);
                        n.dk[std::size_t((b * p.keys + j) * C + h * d + c)] += ds * at(q, b, i, h * d + c);
                        n.dv[std::size_t((b * p.keys + j) * C + h * d + c)] +=
                            w[std::size_t(j)] * z[std::size_t(j)] * at(dout, b, i, h * d + c);
                    }
                }
            }
    return n;
}

// got (a view, holding `base` before the call added to it) against want (packed); the gaps
// between rows and batches keep the sentinel. Returns the largest error relative to the
// largest reference value.
double compareView(const View& got, double base, const std::vector<double>& want, i64 batch, i64 width, const QString& what)
{
    double worst = 0, scale = 1e-30;
    for (double w : want) scale = std::max(scale, std::abs(w));
    for (i64 b = 0; b < batch; ++b)
        for (i64 r = 0; r < got.rows; ++r)
            for (i64 c = 0; c < width; ++c) {
                const double g = double(got.data[std::size_t(b * got.batchStride + r * got.rowStride + c)]) - base;
                worst = std::max(worst, std::abs(g - want[std::size_t((b * got.rows + r) * width + c)]) / scale);
            }
    for (std::size_t i = 0; i < got.data.size(); ++i) {
        const i64 inBatch = i64(i) % got.batchStride, col = inBatch % got.rowStride;
        if (inBatch >= got.rows * got.rowStride || col >= width)
            if (got.data[i] != kSentinel) {
                qWarning("%s: element %zu outside the view was written", qPrintable(what), i);
                return std::numeric_limits<double>::infinity();
            }
    }
    return worst;
}

}  // namespace

class TestOpsAttention : public QObject {
    Q_OBJECT

private slots:
    void matchesPyTorch_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("causal, 2 heads") << 0;
        QTest::newRow("key padding, 4 heads") << 1;
        QTest::newRow("causal with key padding, no bias") << 2;
    }
    void matchesPyTorch()
    {
        QFETCH(int, which);
        const Reference& ref = which == 0 ? kCausal : which == 1 ? kPadding : kCausalPaddingNoBias;
        const i64 b = ref.shape[0], t = ref.shape[1], c = ref.shape[2];
        Attrs attrs{{"heads", i64{which == 1 ? 4 : 2}}, {"causal", which != 1}, {"bias", which != 2}};
        std::vector<Tensor> inputs{seq(ref.shape, 0.37, 0.1)};
        if (which == 1) inputs.push_back(floats(Shape{b, t}, {1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0}));
        if (which == 2) inputs.push_back(floats(Shape{b, t}, {1, 1, 1, 1, 1, 1, 1, 0, 1, 0}));
        expectReference("MultiHeadAttention", attrs, inputs, seqParams(c, which != 2), ref);
    }

    // PyTorch's parameter names and shapes (state_dict keys, so a checkpoint loads with
    // strict=True), and its initial ranges: in_proj_weight xavier_uniform, bound
    // sqrt(6 / (C + 3C)); out_proj.weight its Linear's, bound 1 / sqrt(C); biases zero.
    void parametersAreNamedAndStartedAsPyTorchs()
    {
        const Op& op = *OpRegistry::builtin().find("MultiHeadAttention");
        Attrs attrs;
        QVERIFY(normaliseAttrs(op.attrSpecs(), {{"heads", i64{4}}}, attrs).empty());
        const std::vector<TensorSpec> in{{Shape{2, 10, 64}}};
        const std::vector<ParamSpec> p = op.params(attrs, in);
        QCOMPARE(p.size(), std::size_t(4));
        const std::vector<std::pair<std::string, Shape>> expected{
            {"in_proj_weight", Shape{192, 64}}, {"in_proj_bias", Shape{192}}, {"out_proj.weight", Shape{64, 64}}, {"out_proj.bias", Shape{64}}};
        const double bounds[4] = {std::sqrt(6.0 / 256.0), 0.0, 1.0 / 8.0, 0.0};
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(p[i].name, expected[i].first);
            QCOMPARE(p[i].shape, expected[i].second);
            std::vector<float> values(std::size_t(p[i].shape.numel()));
            initialise(p[i].init, values.data(), i64(values.size()), 99);
            double top = 0;
            for (float v : values) top = std::max(top, double(std::abs(v)));
            QVERIFY2(top <= bounds[i] && top >= 0.98 * bounds[i],
                     qPrintable(QString::fromStdString(p[i].name) + QString(": largest |value| %1, bound %2").arg(top).arg(bounds[i])));
        }
        Attrs noBias;
        QVERIFY(normaliseAttrs(op.attrSpecs(), {{"heads", i64{4}}, {"bias", false}}, noBias).empty());
        const std::vector<ParamSpec> q = op.params(noBias, in);
        QCOMPARE(q.size(), std::size_t(2));
        QCOMPARE(q[1].name, std::string("out_proj.weight"));
    }

    // Dropout on the weights only while training: evaluation equals dropout 0, training
    // differs, and a second run with the same seed gives the same bits.
    void dropoutOnlyWhileTraining()
    {
        const Tensor x = seq(Shape{2, 6, 8}, 0.37, 0.1);
        const auto output = [&](double p, bool training, std::uint64_t seed) {
            return OpRun("MultiHeadAttention", {{"heads", i64{2}}, {"dropout", p}}, {x}, seqParams(8, true), training, seed).forward();
        };
        const Tensor none = output(0.0, true, 1), evaluation = output(0.5, false, 1), dropped = output(0.5, true, 1);
        QVERIFY(std::memcmp(none.raw(), evaluation.raw(), none.bytes()) == 0);
        QVERIFY(std::memcmp(none.raw(), dropped.raw(), none.bytes()) != 0);
        const Tensor again = output(0.5, true, 1), otherSeed = output(0.5, true, 2);
        QVERIFY(std::memcmp(dropped.raw(), again.raw(), dropped.bytes()) == 0);
        QVERIFY(std::memcmp(dropped.raw(), otherSeed.raw(), dropped.bytes()) != 0);
    }

    void refusalsNameTheCause()
    {
        const Op& op = *OpRegistry::builtin().find("MultiHeadAttention");
        const auto refusal = [&](const Attrs& given, std::vector<TensorSpec> in) -> std::pair<QString, std::vector<std::string>> {
            Attrs attrs;
            if (const std::string err = normaliseAttrs(op.attrSpecs(), given, attrs); !err.empty()) return {QString::fromStdString(err), {}};
            try {
                op.inferOutput(attrs, in);
            } catch (const OpError& e) {
                return {QString::fromUtf8(e.what()), e.attrs()};
            }
            return {};
        };
        auto r = refusal({{"heads", i64{3}}}, {{Shape{2, 5, 8}}});
        QVERIFY2(r.second == std::vector<std::string>{"heads"} && r.first.contains("do not divide the 8 channels"), qPrintable(r.first));
        r = refusal({{"heads", i64{2}}, {"embed_dim", i64{16}}}, {{Shape{2, 5, 8}}});
        QVERIFY2(r.second == std::vector<std::string>{"embed_dim"} && r.first.contains("8 channels"), qPrintable(r.first));
        r = refusal({{"heads", i64{2}}}, {{Shape{2, 5, 8}}, {Shape{2, 6}}});
        QVERIFY2(r.first.contains("mask (input 2) has shape [2, 6], expected [2, 5]"), qPrintable(r.first));
        r = refusal({{"heads", i64{2}}}, {{Shape{2, 8}}});
        QVERIFY2(r.first.contains("rank 3"), qPrintable(r.first));
        r = refusal({{"heads", i64{2}}, {"dropout", 1.0}}, {{Shape{2, 5, 8}}});
        QVERIFY2(r.first.contains("dropout"), qPrintable(r.first));
    }

    void primitiveMatchesTheDefinition_data()
    {
        QTest::addColumn<int>("which");
        const char* names[] = {"plain", "causal", "padding mask", "causal with padding", "70 queries, 200 keys, causal",
                               "dropout 0.2 with padding"};
        for (int i = 0; i < 6; ++i) QTest::newRow(names[i]) << i;
    }
    // Forward (o, lse) and backward (dq, dk, dv, added to what they held) against the naive
    // definition in double: within 2e-6 of the largest value (float sums over 200 keys).
    // Sample 1's keys are all padding where masked (o = 0, lse = -inf, no gradient), and
    // causal rows whose visible keys are all padding likewise.
    void primitiveMatchesTheDefinition()
    {
        QFETCH(int, which);
        PrimitiveCase p;
        p.causal = which == 1 || which == 3 || which == 4;
        p.masked = which == 2 || which == 3 || which == 5;
        p.dropout = which == 5 ? 0.2f : 0.0f;
        if (which == 4) p.queries = 70;
        std::mt19937_64 rng(40 + which);
        const i64 C = p.heads * p.headDim;
        const View q = view(p.batch, p.queries, C, rng, true), k = view(p.batch, p.keys, C, rng, true),
                   v = view(p.batch, p.keys, C, rng, true), dout = view(p.batch, p.queries, C, rng, true);
        std::vector<float> mask(std::size_t(p.batch * p.keys), 1.0f);
        std::bernoulli_distribution real(0.7);
        for (i64 j = 0; j < p.keys; ++j) mask[std::size_t(j)] = j < 3 ? 0.0f : real(rng) ? 1.0f : 0.0f;
        for (i64 j = 0; j < p.keys; ++j) mask[std::size_t(p.keys + j)] = 0.0f;  // sample 1: nothing to attend to
        AttentionGeometry g;
        g.batch = p.batch, g.heads = p.heads, g.queries = p.queries, g.keys = p.keys, g.headDim = p.headDim;
        g.qRowStride = q.rowStride, g.kRowStride = k.rowStride, g.vRowStride = v.rowStride, g.oRowStride = dout.rowStride;
        g.qBatchStride = q.batchStride, g.kBatchStride = k.batchStride, g.vBatchStride = v.batchStride;
        g.oBatchStride = dout.batchStride;
        g.scale = 0.25f, g.causal = p.causal, g.dropout = p.dropout;
        const std::uint64_t seed = 1234;
        View o = view(p.batch, p.queries, C, rng, false);  // 0.5 everywhere in the view: overwritten
        std::vector<float> lse(std::size_t(p.batch * p.heads * p.queries), 0.5f);
        const float* maskArg = p.masked ? mask.data() : nullptr;
        cpuBackend().attentionForward(g, q.data.data(), k.data.data(), v.data.data(), maskArg, o.data.data(), lse.data(), seed);
        View dq = view(p.batch, p.queries, C, rng, false), dk = view(p.batch, p.keys, C, rng, false),
             dv = view(p.batch, p.keys, C, rng, false);  // 0.5: added to
        cpuBackend().attentionBackward(g, q.data.data(), k.data.data(), v.data.data(), maskArg, o.data.data(), lse.data(),
                                       dout.data.data(), dq.data.data(), dk.data.data(), dv.data.data(), seed);

        const Naive want = naive(p, g, q, k, v, mask, dout, seed);
        constexpr double kTolerance = 2e-6;
        const double errors[4] = {compareView(o, 0.0, want.o, p.batch, C, "o"), compareView(dq, 0.5, want.dq, p.batch, C, "dq"),
                                  compareView(dk, 0.5, want.dk, p.batch, C, "dk"), compareView(dv, 0.5, want.dv, p.batch, C, "dv")};
        const char* names[4] = {"o", "dq", "dk", "dv"};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(errors[i] <= kTolerance, qPrintable(QString("%1: error %2 of the largest value").arg(names[i]).arg(errors[i])));
        double lseError = 0;
        int hidden = 0;
        for (std::size_t i = 0; i < lse.size(); ++i) {
            if (std::isinf(want.lse[i])) {
                QVERIFY2(lse[i] == kNegInf, qPrintable(QString("lse[%1] = %2 for a row with no key").arg(i).arg(lse[i])));
                ++hidden;
                continue;
            }
            lseError = std::max(lseError, std::abs(double(lse[i]) - want.lse[i]) / std::max(1.0, std::abs(want.lse[i])));
        }
        QVERIFY2(lseError <= kTolerance, qPrintable(QString("lse: error %1").arg(lseError)));
        if (p.masked) QVERIFY2(hidden >= p.heads * p.queries, "sample 1 has no real key: every row of it is hidden");
        qInfo("o %.2g, dq %.2g, dk %.2g, dv %.2g, lse %.2g; %d rows with no key", errors[0], errors[1], errors[2], errors[3], lseError,
              hidden);
    }

    // Linear in the tokens: the op keeps qkv, o and a log-sum-exp per row and head, and its
    // workspace is backward's gradients of qkv and o, so doubling the tokens doubles every
    // byte; and the primitive's largest allocation at 1,024 tokens is its few blocks, not the
    // 4 MiB of a tokens x tokens matrix.
    void nothingQuadraticInTheTokens()
    {
        const Op& op = *OpRegistry::builtin().find("MultiHeadAttention");
        Attrs attrs;
        QVERIFY(normaliseAttrs(op.attrSpecs(), {{"heads", i64{4}}, {"causal", true}}, attrs).empty());
        const auto bytes = [&](i64 tokens) {
            const std::vector<TensorSpec> in{{Shape{2, tokens, 64}}, {Shape{2, tokens}}};
            const TensorSpec out = op.inferOutput(attrs, in);
            std::size_t total = op.workspaceBytes(cpuBackend(), attrs, in, out);
            for (const TensorSpec& s : op.saved(attrs, in, out)) total += std::size_t(s.shape.numel()) * dtypeSize(s.dtype);
            return total;
        };
        QCOMPARE(bytes(1024), 2 * bytes(512));
        QCOMPARE(bytes(512), 2 * bytes(256));

        const i64 tokens = 1024, heads = 2, d = 32, C = heads * d;
        std::mt19937_64 rng(5);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        std::vector<float> qkv(std::size_t(tokens * 3 * C)), o(std::size_t(tokens * C)), lse(std::size_t(heads * tokens)),
            dout(o.size()), dqkv(qkv.size(), 0.0f);
        for (float& x : qkv) x = normal(rng);
        for (float& x : dout) x = normal(rng);
        AttentionGeometry g;
        g.heads = heads, g.queries = g.keys = tokens, g.headDim = d, g.scale = 0.2f, g.causal = true;
        g.qRowStride = g.kRowStride = g.vRowStride = 3 * C, g.oRowStride = C;
        largestAllocation = 0;
        watching = true;
        cpuBackend().attentionForward(g, qkv.data(), qkv.data() + C, qkv.data() + 2 * C, nullptr, o.data(), lse.data(), 3);
        watching = false;
        const std::size_t forward = largestAllocation;
        largestAllocation = 0;
        watching = true;
        cpuBackend().attentionBackward(g, qkv.data(), qkv.data() + C, qkv.data() + 2 * C, nullptr, o.data(), lse.data(),
                                       dout.data(), dqkv.data(), dqkv.data() + C, dqkv.data() + 2 * C, 3);
        watching = false;
        const std::size_t backward = largestAllocation;
        const std::size_t matrix = std::size_t(tokens * tokens) * sizeof(float);
        qInfo("largest allocation: forward %zu bytes, backward %zu bytes; one %lld x %lld matrix is %zu", forward, backward,
              qlonglong(tokens), qlonglong(tokens), matrix);
        QVERIFY2(forward < matrix / 32 && backward < matrix / 16, "an allocation of the order of tokens x tokens");
    }

    // Every element is one thread's work in an order fixed by the shape: the op's output and
    // every gradient are the same bits with 1 thread and with 2 (causal, padding, dropout).
    void sameBitsWithOneOrTwoThreads()
    {
        std::mt19937_64 rng(3);
        Tensor x = Tensor::empty(Shape{3, 150, 32}), mask = Tensor::empty(Shape{3, 150});
        fillInput(InputFill::normal(), x, rng);
        fillInput(InputFill::mask(0.8), mask, rng);
        std::vector<Tensor> params;
        for (const Tensor& p : seqParams(32, true)) params.push_back(p);
        const auto runWith = [&](int threads) {
            setCpuThreads(threads);
            OpRun run("MultiHeadAttention", {{"heads", i64{4}}, {"causal", true}, {"dropout", 0.1}}, {x, mask}, params);
            std::vector<Tensor> all{run.forward()};
            for (const Tensor& grad : run.backward(dyFor(all[0]))) all.push_back(grad);
            return all;
        };
        const std::vector<Tensor> one = runWith(1), two = runWith(2);
        setCpuThreads(0);
        for (std::size_t i = 0; i < one.size(); ++i)
            QVERIFY2(std::memcmp(one[i].raw(), two[i].raw(), one[i].bytes()) == 0,
                     qPrintable(QString("%1 differs between 1 and 2 threads").arg(i == 0 ? QString("y") : QString("gradient %1").arg(i - 1))));
    }
};

QTEST_GUILESS_MAIN(TestOpsAttention)
#include "tst_ops_attention.moc"

// The convolution family a builder needs beside Conv2d (ConvTranspose2d, Upsample, Conv1d,
// MaxPool1d, AvgPool1d) and Conv2d's groups (depthwise and grouped) against PyTorch: the forward
// and every gradient of sum(y * dy) on fixed inputs, and the shape errors, which name the
// attribute at fault. Finite-difference checks of each op's cases: tst_op_registry.
//
// The references were computed by PyTorch from seq() inputs as op_run.h says, with
// x = seq(x_shape, 0.37, 0.1), y = <the PyTorch call above each reference>; parameters are
// seq(shape, a, b, 0.5) as each test says. Tolerance: expectClose's (op_run.h).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

#include "backend/backend.h"
#include "gradcheck.h"
#include "op_run.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

using i64 = std::int64_t;
using Ints = std::vector<i64>;

// ---- ConvTranspose2d: x seq([1, 4, 2, 2]), w seq([4, 1, 3, 2], 0.9, 0.2, 0.5), b seq([2], 1.3, 0.4, 0.5)
// F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(1, 0), output_padding=(1, 0), groups=2, dilation=(1, 2))
const Reference kConvTranspose{
    Shape{1, 2, 4, 4},
    {0.6894333f, 0.8180451f, 0.6577185f, 0.6679262f, 0.1184597f, 0.114883f, 0.2428487f, 0.1418037f,
     0.8622913f, 0.8161834f, 0.6140862f, 0.5034854f, 0.04850478f, -0.04288839f, -0.406432f, -0.409453f,
     0.8032006f, 0.7594396f, 0.4106707f, 0.2454885f, 0.6575372f, 0.5380163f, 0.6778471f, 0.5920255f,
     0.6800007f, 0.5756354f, 0.1141892f, 0.0345436f, -0.1628022f, -0.157454f, 0.05864787f, 0.1449425f},
    {
     {0.7289922f, 1.092254f, -0.3900201f, 0.2883951f, 0.8902659f, 0.8907326f, 0.3665908f, 0.9937146f,
      0.4893001f, 0.5727758f, -0.310905f, 0.3664907f, 0.7592975f, 0.2285873f, 0.6151475f, 0.8615038f},
     {-0.5415013f, -1.554485f, 0.4236719f, 1.96384f, 0.2439048f, -1.880929f, -0.2365675f, -1.101317f,
      0.9393924f, 2.673573f, -0.03055355f, -2.683959f, -1.160721f, 0.541652f, 1.375386f, -0.30217f,
      -1.478104f, -0.2002881f, -1.216819f, 0.3708632f, 2.556622f, -1.079431f, -2.923558f, 0.08561349f},
     {1.232054f, 1.589561f},
    }};

// ---- Conv2d groups: a MobileNet block, depthwise 3x3 (stride 2) -> ReLU -> grouped 1x1. x seq([1, 4, 5, 5]),
// wd seq([4, 1, 3, 3], 0.9, 0.2, 0.5), bd seq([4], 1.3, 0.4, 0.5), wp seq([6, 2, 1, 1], 0.6, 0.5, 0.5), bp seq([6], 1.1, 0.7, 0.5);
// gradients: x, wd, bd, wp, bp.
// F.conv2d(F.relu(F.conv2d(x, wd, bd, stride=2, padding=1, groups=4)), wp, bp, groups=2)
const Reference kMobileNetBlock{
    Shape{1, 6, 3, 3},
    {0.4100095f, 0.3505417f, 0.8419161f, 1.079744f, 0.6787881f, 0.3586515f, 0.5878713f, 0.9846469f,
     0.8454652f, 0.6687413f, 0.5107147f, 0.9218652f, 1.527257f, 1.224695f, 0.5625104f, 0.7092968f, 1.041293f,
     1.081185f, 0.16349f, 0.1084333f, -0.0849738f, 0.1159356f, 0.2976195f, 0.1378607f, 0.01501937f,
     -0.1411533f, 0.02693873f, -0.3784012f, -0.6911801f, -0.6298588f, -0.3784012f, -0.3784012f, -0.5035431f,
     -1.074078f, -0.9170406f, -0.4729446f, -0.4629073f, -0.6539884f, -0.7186642f, -0.4629073f, -0.4629073f,
     -0.5096985f, -1.09871f, -1.010756f, -0.5590671f, -0.0415447f, 0.1327548f, 0.02456193f, -0.0415447f,
     -0.0415447f, 0.04968682f, 0.1933566f, 0.1000603f, -0.01668984f},
    {
     {-0.08091401f, -0.132233f, 0.0f, 0.0f, 0.0f, 0.2817423f, 0.3795886f, 0.01034f, -0.04238891f, -0.2374772f,
      -0.173899f, -0.281417f, -0.007098918f, -0.07535336f, 0.1630398f, 0.06114025f, 0.2481019f, 0.002495873f,
      0.1480224f, -0.1946636f, 0.0f, 0.0f, 0.0f, -0.03686998f, 0.09429153f, 0.0f, -0.2706775f, -0.1673174f,
      -0.2561831f, -0.1970939f, 0.04838089f, 0.109545f, 0.2422022f, 0.3447516f, 0.2853054f, -0.134174f,
      0.05025194f, 0.0f, 0.0f, 0.0f, 0.1241552f, -0.01489087f, -0.0632991f, 0.06921005f, -0.02675785f,
      0.1943234f, 0.2112103f, 0.1755464f, 0.05430138f, 0.07420714f, 0.0f, -0.07737399f, -0.2850221f,
      -0.3644021f, -0.3220688f, 0.0f, -0.05931396f, 0.2032308f, 0.2449511f, 0.2296464f, 0.0f, 0.0f, 0.0f,
      0.0f, 0.0f, -0.3543543f, -0.4104553f, -0.3072177f, -0.2596338f, -0.1155918f, 0.323579f, 0.3905952f,
      0.2805362f, 0.301266f, 0.1055528f, 0.0f, -0.1210616f, -0.02388153f, 0.09137156f, 0.0f, 0.0f, 0.1374765f,
      0.07954194f, -0.09863488f, 0.02681559f, 0.0f, 0.0f, 0.0f, 0.08928151f, 0.01761236f, 0.04184547f,
      0.1457252f, 0.0f, -0.1013873f, -0.05866127f, 0.02748392f, -0.1051544f, 0.0f, 0.0f, 0.0f},
     {-0.1678994f, 0.4588485f, 0.418113f, 0.2784397f, -0.02750202f, -0.3898178f, -0.2506275f, -0.4874378f,
      0.05643376f, -0.169459f, -0.768679f, -0.4621383f, 0.05559421f, 0.4763916f, 0.9571736f, -0.6161776f,
      0.06877602f, 0.04683652f, -0.3241015f, -0.6272116f, -0.3296799f, 0.1831693f, 0.360491f, 0.7609257f,
      -0.870061f, -0.4915345f, -0.2609463f, -0.1156591f, 0.2427558f, 0.2245604f, 0.1773828f, 0.08605041f,
      -0.1024777f, 0.2780811f, 0.1637049f, 0.1568283f},
     {0.01497245f, 0.1763632f, 0.2247171f, 0.2446178f},
     {0.8086907f, -0.370362f, 0.7786351f, -0.3606851f, 0.7483596f, -0.3509063f, -1.765796f, -0.04041314f,
      -1.753892f, -0.04090459f, -1.741492f, -0.0413844f},
     {-0.001019478f, -0.0006073117f, -0.0001952052f, 0.0002169609f, 0.0006293654f, 0.001041174f},
    }};

// ---- Upsample: x seq(x_shape) as each says; gradient: x.
// x = seq([1, 2, 2, 3]); F.interpolate(x, scale_factor=2, mode='nearest')
const Reference kNearestX2{
    Shape{1, 2, 4, 6},
    {0.09983341f, 0.09983341f, 0.4528863f, 0.4528863f, 0.7446431f, 0.7446431f, 0.09983341f, 0.09983341f,
     0.4528863f, 0.4528863f, 0.7446431f, 0.7446431f, 0.935616f, 0.935616f, 0.9999576f, 0.9999576f, 0.9289597f,
     0.9289597f, 0.935616f, 0.935616f, 0.9999576f, 0.9999576f, 0.9289597f, 0.9289597f, 0.7322314f, 0.7322314f,
     0.4363991f, 0.4363991f, 0.08150215f, 0.08150215f, 0.7322314f, 0.7322314f, 0.4363991f, 0.4363991f,
     0.08150215f, 0.08150215f, -0.2844257f, -0.2844257f, -0.6118579f, -0.6118579f, -0.856478f, -0.856478f,
     -0.2844257f, -0.2844257f, -0.6118579f, -0.6118579f, -0.856478f, -0.856478f},
    {
     {-0.7239937f, 1.604793f, 1.269518f, 1.874381f, 0.03105295f, -1.863825f, -1.222696f, -1.637043f,
      0.6662087f, -0.6045167f, 1.669143f, 1.171916f},
    }};

// x = seq([1, 1, 2, 3]); F.interpolate(x, scale_factor=(3, 2), mode='nearest')
const Reference kNearestX3By2{
    Shape{1, 1, 6, 6},
    {0.09983341f, 0.09983341f, 0.4528863f, 0.4528863f, 0.7446431f, 0.7446431f, 0.09983341f, 0.09983341f,
     0.4528863f, 0.4528863f, 0.7446431f, 0.7446431f, 0.09983341f, 0.09983341f, 0.4528863f, 0.4528863f,
     0.7446431f, 0.7446431f, 0.935616f, 0.935616f, 0.9999576f, 0.9999576f, 0.9289597f, 0.9289597f, 0.935616f,
     0.935616f, 0.9999576f, 0.9999576f, 0.9289597f, 0.9289597f, 0.935616f, 0.935616f, 0.9999576f, 0.9999576f,
     0.9289597f, 0.9289597f},
    {
     {-0.036249f, -0.001214147f, 0.03583622f, -0.03605964f, 1.621246e-05f, 0.03606504f},
    }};

// x = seq([1, 1, 3, 4]); F.interpolate(x, size=(5, 7), mode='nearest')
const Reference kNearestTo5x7{
    Shape{1, 1, 5, 7},
    {0.09983341f, 0.09983341f, 0.4528863f, 0.4528863f, 0.7446431f, 0.7446431f, 0.935616f, 0.09983341f,
     0.09983341f, 0.4528863f, 0.4528863f, 0.7446431f, 0.7446431f, 0.935616f, 0.9999576f, 0.9999576f,
     0.9289597f, 0.9289597f, 0.7322314f, 0.7322314f, 0.4363991f, 0.9999576f, 0.9999576f, 0.9289597f,
     0.9289597f, 0.7322314f, 0.7322314f, 0.4363991f, 0.08150215f, 0.08150215f, -0.2844257f, -0.2844257f,
     -0.6118579f, -0.6118579f, -0.856478f},
    {
     {-0.1203402f, 2.829106f, 1.08205f, -0.9527547f, -0.9477558f, -2.855853f, -0.02304658f, 1.330087f,
      1.851551f, 0.6285713f, -1.637878f, -0.858707f},
    }};

// x = seq([1, 2, 3, 3]); F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=False)
const Reference kBilinearX2{
    Shape{1, 2, 6, 6},
    {0.09983341f, 0.1880966f, 0.364623f, 0.5258255f, 0.6717039f, 0.7446431f, 0.3087791f, 0.3789978f,
     0.5194353f, 0.6399212f, 0.7404552f, 0.7907223f, 0.7266704f, 0.7608002f, 0.82906f, 0.8681124f, 0.8779578f,
     0.8828806f, 0.8847699f, 0.8783444f, 0.8654935f, 0.8235748f, 0.7525885f, 0.7170953f, 0.7830776f,
     0.7316303f, 0.6287359f, 0.5063082f, 0.3643471f, 0.2933666f, 0.7322314f, 0.6582733f, 0.5103571f,
     0.3476748f, 0.1702264f, 0.08150215f, -0.2844257f, -0.3662837f, -0.5299999f, -0.6730129f, -0.795323f,
     -0.856478f, -0.4596137f, -0.5207173f, -0.6429244f, -0.7413099f, -0.8158736f, -0.8531554f, -0.8099898f,
     -0.8295844f, -0.8687736f, -0.8779038f, -0.8569748f, -0.8465103f, -0.8868122f, -0.86522f, -0.8220354f,
     -0.7517669f, -0.6544142f, -0.6057379f, -0.6900811f, -0.627624f, -0.5027098f, -0.3628991f, -0.2081918f,
     -0.1308382f, -0.5917156f, -0.5088261f, -0.343047f, -0.1684652f, 0.01491939f, 0.1066117f},
    {
     {0.005667742f, 1.075561f, 0.5519836f, 0.4444472f, 0.006983854f, -0.4408261f, -0.5173868f, -1.083602f,
      -0.0444335f, 0.08525003f, 1.090821f, 0.4803134f, 0.4364973f, -0.02170097f, -0.4477487f, -0.5878159f,
      -1.065835f, 0.03520688f},
    }};

// x = seq([1, 1, 2, 2]); F.interpolate(x, scale_factor=3, mode='bilinear', align_corners=False)
const Reference kBilinearX3{
    Shape{1, 1, 6, 6},
    {0.09983341f, 0.09983342f, 0.2175177f, 0.335202f, 0.4528863f, 0.4528863f, 0.09983342f, 0.09983343f,
     0.2175177f, 0.335202f, 0.4528863f, 0.4528863f, 0.31477f, 0.31477f, 0.4144454f, 0.5141208f, 0.6137962f,
     0.6137962f, 0.5297065f, 0.5297065f, 0.6113731f, 0.6930396f, 0.7747061f, 0.7747061f, 0.7446431f,
     0.7446431f, 0.8083007f, 0.8719583f, 0.935616f, 0.935616f, 0.7446431f, 0.7446431f, 0.8083007f, 0.8719584f,
     0.935616f, 0.935616f},
    {
     {0.6666502f, 0.7802215f, -0.7440093f, -0.7044677f},
    }};

// x = seq([1, 1, 3, 4]); F.interpolate(x, size=(5, 7), mode='bilinear', align_corners=False)
const Reference kBilinearTo5x7{
    Shape{1, 1, 5, 7},
    {0.09983341f, 0.2259237f, 0.4276682f, 0.5987647f, 0.758284f, 0.8674114f, 0.935616f, 0.4598831f,
     0.5253947f, 0.6302134f, 0.6914971f, 0.7394107f, 0.7372682f, 0.7359293f, 0.9999576f, 0.9746011f,
     0.934031f, 0.8305954f, 0.7111005f, 0.5420533f, 0.436399f, 0.4488843f, 0.3603286f, 0.2186395f,
     0.06335302f, -0.09315836f, -0.244647f, -0.3393272f, 0.08150215f, -0.04918638f, -0.258288f, -0.4481418f,
     -0.6293308f, -0.7691137f, -0.856478f},
    {
     {0.2463684f, 1.907676f, 1.106231f, -1.054914f, -1.514894f, -1.542663f, 0.4962429f, 1.795619f, 1.911582f,
      0.2898323f, -1.813124f, -1.502927f},
    }};

// x = seq([1, 1, 3, 5]); F.interpolate(x, size=(2, 3), mode='bilinear', align_corners=False)
const Reference kBilinearDownTo2x3{
    Shape{1, 1, 2, 3},
    {0.3789842f, 0.6675821f, 0.6932704f, -0.3042025f, -0.6297835f, -0.7073409f},
    {
     {0.1477601f, 0.07388008f, 0.6311032f, 0.2479163f, 0.4958324f, 0.1618306f, 0.08091529f, 0.2207629f,
      0.03165059f, 0.06330115f, 0.3377316f, 0.1688658f, 0.03118549f, -0.1529645f, -0.3059289f},
    }};

// ---- Conv1d: x seq([2, 4, 9]), w seq([6, 2, 3], 0.9, 0.2, 0.5), b seq([6], 1.3, 0.4, 0.5)
// F.conv1d(x, w, b, stride=2, padding=1, dilation=3, groups=2)
const Reference kConv1d{
    Shape{2, 6, 3},
    {1.632458f, 1.24054f, 0.6771047f, 1.161434f, 0.3525714f, -0.2310639f, -0.522284f, -1.157124f, -1.334547f,
     -1.857267f, -1.622287f, -1.229261f, -1.384258f, -0.387761f, -0.1046535f, 0.3319071f, 1.361866f,
     1.328213f, 1.255617f, 0.2990278f, 0.1800002f, 0.7621539f, -0.5142205f, -0.1520732f, -0.6522835f,
     -1.315905f, -0.7371733f, -1.260557f, -0.6884668f, -0.3887855f, -0.697502f, 0.5646098f, 0.08455741f,
     0.6069551f, 1.636972f, 0.7279189f},
    {
     {0.0f, 0.512186f, 0.5064616f, 0.4785659f, 0.652483f, 0.3247261f, 0.4916316f, 0.2989939f, 0.0f, 0.0f,
      -0.2807678f, -0.4524739f, -0.3267306f, -0.6480501f, -0.459769f, -0.5388382f, -0.5249009f, 0.0f, 0.0f,
      -0.6538619f, -0.4565923f, -0.5325263f, -0.5091109f, -0.09996857f, -0.3221866f, 0.02092511f, 0.0f, 0.0f,
      0.5351254f, 0.5131022f, 0.4862636f, 0.6443534f, 0.3055895f, 0.4725552f, 0.2659476f, 0.0f, 0.0f,
      0.5164279f, 0.5200123f, 0.470667f, 0.6517271f, 0.327185f, 0.4769244f, 0.2938122f, 0.0f, 0.0f,
      -0.2864539f, -0.467979f, -0.3249347f, -0.6499375f, -0.4685513f, -0.5262202f, -0.5215612f, 0.0f, 0.0f,
      -0.6551845f, -0.4646791f, -0.5193565f, -0.5053155f, -0.09482934f, -0.3082942f, 0.02696618f, 0.0f, 0.0f,
      0.5388404f, 0.5259598f, 0.4774704f, 0.642931f, 0.3070984f, 0.4575217f, 0.2604642f, 0.0f},
     {3.02842f, 2.803094f, 0.5250533f, -3.16491f, -2.365509f, -0.1442912f, -1.135646f, 0.7090766f, 0.9190395f,
      1.102803f, -0.9743724f, -0.737213f, -1.881768f, -3.519043f, -1.453f, 2.051419f, 3.349325f, 0.8886494f,
      3.200218f, 1.885551f, -0.2336093f, -3.113067f, -1.296954f, 0.619f, -1.082769f, 1.157239f, 0.5287206f,
      0.973767f, -1.354944f, -0.3116796f, -2.106954f, -3.054007f, -0.3002357f, 2.129862f, 2.66503f,
      -0.3042995f},
     {4.302064f, 0.1253303f, -4.428609f, 4.346202f, 0.04028308f, -4.386875f},
    }};

// ---- MaxPool1d and AvgPool1d: x seq([1, 2, 7]), kernel 3, stride 2, padding 1; gradient: x.
// F.max_pool1d(x, 3, 2, 1)
const Reference kMaxPool1d{
    Shape{1, 2, 4},
    {0.4528863f, 0.935616f, 0.9999576f, 0.9289597f, 0.4363991f, 0.08150215f, -0.6118579f, -0.9805384f},
    {
     {0.0f, 0.2955202f, 0.0f, 0.841471f, 0.9916648f, 0.6754632f, 0.0f, 0.04158066f, -0.6118579f, 0.0f,
      -0.9775301f, 0.0f, 0.0f, -0.8834547f},
    }};

// F.avg_pool1d(x, 3, 2, 1, count_include_pad=True)
const Reference kAvgPool1dPadCounted{
    Shape{1, 2, 4},
    {0.1842399f, 0.7110484f, 0.9548445f, 0.5537304f, 0.1726338f, -0.2715938f, -0.8178379f, -0.6552387f},
    {
     {0.09850674f, 0.3789971f, 0.2804903f, 0.6110452f, 0.3305549f, 0.5557094f, 0.2251544f, 0.01386022f,
      -0.1900924f, -0.2039526f, -0.529796f, -0.3258434f, -0.6203282f, -0.2944849f},
    }};

// F.avg_pool1d(x, 3, 2, 1, count_include_pad=False)
const Reference kAvgPool1dPadNotCounted{
    Shape{1, 2, 4},
    {0.2763599f, 0.7110484f, 0.9548445f, 0.8305956f, 0.2589506f, -0.2715938f, -0.8178379f, -0.9828581f},
    {
     {0.1477601f, 0.4282504f, 0.2804903f, 0.6110452f, 0.3305549f, 0.6682866f, 0.3377316f, 0.02079033f,
      -0.1831623f, -0.2039526f, -0.529796f, -0.3258434f, -0.7675707f, -0.4417273f},
    }};

}  // namespace

Q_DECLARE_METATYPE(const Reference*)
Q_DECLARE_METATYPE(ts::Shape)
Q_DECLARE_METATYPE(ts::Attrs)

class TestOpsConvFamily : public QObject {
    Q_OBJECT
private slots:
    // ---- ConvTranspose2d
    // Kernel 2, stride 2: each input pixel pastes the kernel, scaled by it, into its own 2x2 block.
    void convTransposePastesTheKernel()
    {
        const Tensor x = floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4}), w = floats(Shape{1, 1, 2, 2}, {1, 10, 100, 1000});
        const Tensor y = runForward("ConvTranspose2d", {{"out_channels", i64{1}}, {"kernel_size", i64{2}}, {"stride", i64{2}}, {"bias", false}},
                                    {x}, {w});
        QCOMPARE(y.shape(), Shape({1, 1, 4, 4}));
        const std::vector<float> want{1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30, 4, 40, 300, 3000, 400, 4000};
        QCOMPARE(std::vector<float>(y.data<float>(), y.data<float>() + 16), want);
    }
    void convTransposeMatchesPyTorch()
    {
        const Attrs attrs{{"out_channels", i64{2}}, {"kernel_size", Ints{3, 2}}, {"stride", Ints{2, 1}}, {"padding", Ints{1, 0}},
                          {"output_padding", Ints{1, 0}}, {"dilation", Ints{1, 2}}, {"groups", i64{2}}};
        const Tensor x = seq(Shape{1, 4, 2, 2}, 0.37, 0.1);
        const std::vector<Tensor> params{seq(Shape{4, 1, 3, 2}, 0.9, 0.2, 0.5), seq(Shape{2}, 1.3, 0.4, 0.5)};
        // PyTorch's weight layout [in, out / groups, kh, kw].
        Attrs normal;
        QVERIFY(normaliseAttrs(OpRegistry::builtin().find("ConvTranspose2d")->attrSpecs(), attrs, normal).empty());
        const std::vector<TensorSpec> in{{x.shape()}};
        const std::vector<ParamSpec> specs = OpRegistry::builtin().find("ConvTranspose2d")->params(normal, in);
        QCOMPARE(specs.at(0).shape, Shape({4, 1, 3, 2}));
        QCOMPARE(specs.at(1).shape, Shape({2}));
        expectReference("ConvTranspose2d", attrs, {x}, params, kConvTranspose);
    }
    void convTransposeRefusalsNameTheAttribute()
    {
        const Attrs up{{"out_channels", i64{4}}, {"kernel_size", i64{3}}, {"stride", i64{2}}, {"padding", i64{1}}};
        const auto with = [&](const char* name, AttrValue v) { Attrs a = up; a.set(name, std::move(v)); return a; };
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("output_padding", i64{2}), Shape{1, 4, 5, 5}), "output_padding",
                       "output_padding 2x2 must be smaller than the stride 2x2");
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("groups", i64{3}), Shape{1, 4, 5, 5}), "groups",
                       "groups = 3 does not divide the input's 4 channels");
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("in_channels", i64{8}), Shape{1, 4, 5, 5}), "in_channels",
                       "input has 4 channels");
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("padding", i64{3}), Shape{1, 4, 1, 1}), "padding", "crops the whole output");
        QVERIFY(refusal("ConvTranspose2d", up, Shape{1, 4, 5}).message.contains("rank 4 ([N, C, H, W])"));
    }

    // ---- Conv2d with groups (depthwise and grouped): run as a block, backward through all three.
    void depthwiseSeparableBlockMatchesPyTorch()
    {
        const Tensor x = seq(Shape{1, 4, 5, 5}, 0.37, 0.1);
        OpRun depthwise("Conv2d",
                        {{"out_channels", i64{4}}, {"kernel_size", i64{3}}, {"stride", i64{2}}, {"padding", i64{1}}, {"groups", i64{4}}},
                        {x}, {seq(Shape{4, 1, 3, 3}, 0.9, 0.2, 0.5), seq(Shape{4}, 1.3, 0.4, 0.5)});
        const Tensor mid = depthwise.forward();
        OpRun relu("ReLU", {}, {mid}, {});
        const Tensor activated = relu.forward();
        OpRun pointwise("Conv2d", {{"out_channels", i64{6}}, {"kernel_size", i64{1}}, {"groups", i64{2}}}, {activated},
                        {seq(Shape{6, 2, 1, 1}, 0.6, 0.5, 0.5), seq(Shape{6}, 1.1, 0.7, 0.5)});
        const Tensor y = pointwise.forward();
        QCOMPARE(y.shape(), kMobileNetBlock.shape);
        expectClose(y, kMobileNetBlock.y, "y");
        const std::vector<Tensor> pw = pointwise.backward(dyFor(y));
        const std::vector<Tensor> dw = depthwise.backward(relu.backward(pw[0])[0]);
        expectClose(dw[0], kMobileNetBlock.grads[0], "dx");
        expectClose(dw[1], kMobileNetBlock.grads[1], "depthwise dw");
        expectClose(dw[2], kMobileNetBlock.grads[2], "depthwise db");
        expectClose(pw[1], kMobileNetBlock.grads[3], "pointwise dw");
        expectClose(pw[2], kMobileNetBlock.grads[4], "pointwise db");
    }

    // ---- Upsample (the CPU primitive, cpu_upsample.cpp, against F.interpolate)
    void upsampleMatchesPyTorch_data()
    {
        QTest::addColumn<Shape>("x");
        QTest::addColumn<Attrs>("attrs");
        QTest::addColumn<const Reference*>("reference");
        const std::string bilinear = "bilinear";
        QTest::newRow("nearest x2") << Shape{1, 2, 2, 3} << Attrs{} << &kNearestX2;
        QTest::newRow("nearest x3 by x2") << Shape{1, 1, 2, 3} << Attrs{{"scale_factor", Ints{3, 2}}} << &kNearestX3By2;
        QTest::newRow("nearest to 5x7") << Shape{1, 1, 3, 4} << Attrs{{"size", Ints{5, 7}}} << &kNearestTo5x7;
        QTest::newRow("bilinear x2") << Shape{1, 2, 3, 3} << Attrs{{"mode", bilinear}} << &kBilinearX2;
        QTest::newRow("bilinear x3") << Shape{1, 1, 2, 2} << Attrs{{"mode", bilinear}, {"scale_factor", i64{3}}} << &kBilinearX3;
        QTest::newRow("bilinear to 5x7") << Shape{1, 1, 3, 4} << Attrs{{"mode", bilinear}, {"size", Ints{5, 7}}} << &kBilinearTo5x7;
        QTest::newRow("bilinear down to 2x3") << Shape{1, 1, 3, 5} << Attrs{{"mode", bilinear}, {"size", Ints{2, 3}}}
                                              << &kBilinearDownTo2x3;
    }
    void upsampleMatchesPyTorch()
    {
        QFETCH(Shape, x);
        QFETCH(Attrs, attrs);
        QFETCH(const Reference*, reference);
        expectReference("Upsample", attrs, {seq(x, 0.37, 0.1)}, {}, *reference);
    }
    void upsampleRefusalsNameTheAttribute()
    {
        EXPECT_REFUSED(refusal("Upsample", {{"size", Ints{5, 0}}}, Shape{1, 2, 3, 3}), "size", "give both, or 0 for scale_factor");
        QVERIFY(refusal("Upsample", {{"mode", std::string("bicubic")}}, Shape{1, 2, 3, 3}).message.contains("mode"));
        QVERIFY(refusal("Upsample", {{"scale_factor", i64{0}}}, Shape{1, 2, 3, 3}).message.contains("scale_factor"));
        QVERIFY(refusal("Upsample", {}, Shape{1, 2, 3}).message.contains("rank 4 ([N, C, H, W])"));
    }

    // ---- Conv1d
    void conv1dMatchesPyTorch()
    {
        const Attrs attrs{{"out_channels", i64{6}}, {"kernel_size", i64{3}}, {"stride", i64{2}}, {"padding", i64{1}},
                          {"dilation", i64{3}}, {"groups", i64{2}}};
        const Tensor x = seq(Shape{2, 4, 9}, 0.37, 0.1);
        const std::vector<Tensor> params{seq(Shape{6, 2, 3}, 0.9, 0.2, 0.5), seq(Shape{6}, 1.3, 0.4, 0.5)};
        expectReference("Conv1d", attrs, {x}, params, kConv1d);
    }
    void conv1dRefusalsNameTheAttribute()
    {
        const Attrs conv{{"out_channels", i64{4}}, {"kernel_size", i64{5}}};
        const auto with = [&](const char* name, AttrValue v) { Attrs a = conv; a.set(name, std::move(v)); return a; };
        EXPECT_REFUSED(refusal("Conv1d", conv, Shape{1, 2, 4}), "kernel_size", "input has length 4 (4 with padding), shorter than the kernel's extent 5");
        EXPECT_REFUSED(refusal("Conv1d", with("dilation", i64{2}), Shape{1, 2, 8}), "dilation", "shorter than the kernel's extent 9");
        EXPECT_REFUSED(refusal("Conv1d", with("groups", i64{3}), Shape{1, 6, 9}), "out_channels", "does not divide out_channels = 4");
        EXPECT_REFUSED(refusal("Conv1d", with("in_channels", i64{3}), Shape{1, 2, 9}), "in_channels", "input has 2 channels");
        QVERIFY(refusal("Conv1d", conv, Shape{1, 2, 9, 9}).message.contains("rank 3 ([N, C, L])"));
        QVERIFY(refusal("Conv1d", with("kernel_size", Ints{3, 3}), Shape{1, 2, 9}).message.contains("kernel_size"));
    }

    // ---- MaxPool1d and AvgPool1d
    void pool1dMatchesPyTorch_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<bool>("countIncludePad");
        QTest::addColumn<const Reference*>("reference");
        QTest::newRow("max") << "MaxPool1d" << true << &kMaxPool1d;
        QTest::newRow("average, pad counted") << "AvgPool1d" << true << &kAvgPool1dPadCounted;
        QTest::newRow("average, pad not counted") << "AvgPool1d" << false << &kAvgPool1dPadNotCounted;
    }
    void pool1dMatchesPyTorch()
    {
        QFETCH(QString, op);
        QFETCH(bool, countIncludePad);
        QFETCH(const Reference*, reference);
        Attrs attrs{{"kernel_size", i64{3}}, {"stride", i64{2}}, {"padding", i64{1}}};
        if (op == "AvgPool1d") attrs.set("count_include_pad", countIncludePad);
        const Tensor x = seq(Shape{1, 2, 7}, 0.37, 0.1);
        expectReference(op.toStdString(), attrs, {x}, {}, *reference);
    }
    void pool1dRefusalsNameTheAttribute()
    {
        for (const char* op : {"MaxPool1d", "AvgPool1d"}) {
            EXPECT_REFUSED(refusal(op, {{"kernel_size", i64{3}}, {"padding", i64{2}}}, Shape{1, 2, 9}), "padding",
                           "padding 2 is more than half the kernel 3");
            EXPECT_REFUSED(refusal(op, {{"kernel_size", i64{5}}}, Shape{1, 2, 4}), "kernel_size",
                           "input has length 4, shorter than the kernel 5 even with padding");
            QVERIFY(refusal(op, {{"kernel_size", i64{2}}}, Shape{1, 2, 4, 4}).message.contains("rank 3 ([N, C, L])"));
        }
    }

};

QTEST_GUILESS_MAIN(TestOpsConvFamily)
#include "tst_ops_conv_family.moc"

// The one list of the engine's ops. Each family file defines its ops and a register function.
#include "ops/registry.h"

namespace ts {

void registerLinearOps(OpRegistry& r);      // Linear
void registerConvOps(OpRegistry& r);        // Conv2d
void registerPoolOps(OpRegistry& r);        // MaxPool2d, AvgPool2d, GlobalAvgPool
void registerNormOps(OpRegistry& r);        // BatchNorm1d, BatchNorm2d, LayerNorm, GroupNorm
void registerActivationOps(OpRegistry& r);  // ReLU, LeakyReLU, GELU, SiLU, Sigmoid, Tanh, Softmax, Dropout
void registerStructureOps(OpRegistry& r);   // Flatten, Reshape, Add, Concat, Embedding
void registerLossOps(OpRegistry& r);        // CrossEntropy, MSE, BCEWithLogits

void registerBuiltinOps(OpRegistry& r)
{
    registerLinearOps(r);
    registerConvOps(r);
    registerPoolOps(r);
    registerNormOps(r);
    registerActivationOps(r);
    registerStructureOps(r);
    registerLossOps(r);
}

}  // namespace ts

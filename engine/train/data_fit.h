// Whether a dataset fits a model, checked before the first step (train, validate, evaluate),
// so a mismatch is a message naming the sample's file instead of a failure an epoch in, or a
// silently wrong result:
//  - the samples hold as many values as the model's input takes (and every split one shape);
//  - the loss fits the task (the seeds' first checklist item: classification with MSE,
//    regression with CrossEntropy): a class loss for class targets, a regression loss (MSE,
//    L1, Huber) for value targets, and the label input shaped as the value targets;
//  - every label is one of the data's classes;
//  - with a class loss (CrossEntropy), the number of classes equals the model's output width,
//    both ways: a label the output cannot score, or outputs no label ever asks for.
#pragma once
#include "data/dataset.h"
#include "types/model_graph.h"

namespace ts {

// Throws DataError naming the split, the sample's source (file:line, image file) when the
// reader knows it, what differs and the way out.
void checkDataFitsModel(const DatasetSplits& splits, const Graph& model);

}  // namespace ts

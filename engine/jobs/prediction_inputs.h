// What `predict` reads: PNG/JPEG files, folders of them, IDX image files (their labels file
// beside them is read when it is there), CSV rows, and for a text classifier text files
// (prediction_texts.cpp), as one Dataset of samples shaped as the
// experiment's own reader shapes them, so the loader applies the experiment's transforms
// (normalisation) exactly as evaluation does. Images are decoded by data/image_decode.h, IDX
// and CSV files by the dataset readers: there is no second decoder here.
//
// Images are resized only where training resized them (an image_folder experiment, to its
// image_shape, converting channels as its reader does); for IDX and CIFAR-10 models an image
// must already have the model's size, and a colour image is refused by a grayscale model
// rather than silently converted.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/tokenizer.h"
#include "types/message.h"

namespace ts {

// What the model takes, as the experiment's dataset gives it.
struct ModelInput {
    std::string format;      // the experiment's dataset.format: idx, cifar10, csv, image_folder
    Shape sampleShape;       // one sample as its reader makes it: [C, H, W] or [F]
    std::vector<std::string> classNames;
    std::vector<std::string> featureNames;  // csv: the training table's feature columns, in order
    std::string labelColumn;                // csv: read when an input table has it
    // Regression: one sample's target values (data/dataset.h TargetKind::Values) and their
    // names; empty: the model scores classes.
    Shape targetShape;
    std::vector<std::string> targetNames;
    std::string resize = "crop";            // image_folder: dataset.resize, as the reader resized training images
    // A text classifier (text_folder, or csv with text_column): the padded tokenizer it was
    // trained with (its checkpoint's), and the line between a file's texts (dataset.separator;
    // empty: a file is one text). sampleShape is then [context].
    std::optional<Tokenizer> tokenizer;
    std::string separator;
    bool resizes() const { return format == "image_folder"; }
    bool readsText() const { return tokenizer.has_value(); }
    std::string describe() const;  // "28x28 grayscale images ([1, 28, 28])", "rows of 4 features (a, b, c, d)"
};

// Where a sample came from: a file and the sample's index in it (0 for an image).
struct InputSource {
    std::string file;
    std::int64_t index = 0;
    std::string label;  // the label the input carries (IDX labels file, CSV label column); empty: none
};

// An input left out: its file and why, the message naming the file as the throw would have.
struct SkippedInput {
    std::string path;
    std::string reason;
};

class PredictionInputs : public Dataset {
public:
    std::int64_t size() const override { return std::int64_t(sources_.size()); }
    Shape sampleShape() const override { return shape_; }
    std::int64_t numClasses() const override { return std::int64_t(classNames_.size()); }
    std::vector<std::string> classNames() const override { return classNames_; }
    // The label is always 0: predictions ignore it (an input's own label is in sources()).
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return zeros_; }
    std::string description() const override;
    // Texts are token ids, padded at their end (the loader cuts a batch to its longest).
    DType inputDType() const override { return padding_ >= 0 ? DType::I64 : DType::F32; }
    std::int64_t paddingId() const override { return padding_; }
    // A regression model's inputs carry target values of its shape, all 0: predictions ignore them.
    TargetKind targetKind() const override { return targetShape_.rank() > 0 ? TargetKind::Values : TargetKind::Classes; }
    Shape targetShape() const override { return targetShape_; }
    void getValues(std::int64_t, float* out) const override { std::fill_n(out, targetShape_.numel(), 0.0f); }

    const std::vector<InputSource>& sources() const { return sources_; }
    // What was done to fit an input, said once per file ("a.png: resized 64x48 to 32x32 ...").
    const std::vector<Message>& notes() const { return notes_; }

private:
    friend std::shared_ptr<PredictionInputs> openPredictionInputs(const std::vector<std::string>&, const ModelInput&,
                                                                  std::vector<SkippedInput>*);
    friend std::shared_ptr<PredictionInputs> openPredictionTexts(const std::vector<std::string>&, const ModelInput&);
    void addPath(const std::string& path, const ModelInput& model, std::vector<SkippedInput>* skipped);
    struct Table {  // an IDX or CSV file read by its dataset reader
        std::shared_ptr<Dataset> data;
        std::int64_t first = 0;  // its first sample's index here
    };
    void addImage(const std::string& path, const ModelInput& model);
    void addTable(std::shared_ptr<Dataset> data, const std::string& path, bool labelled);
    // prediction_texts.cpp: a file's texts (split at the separator), or texts given directly.
    void addTextFile(const std::string& path, const ModelInput& model, std::vector<SkippedInput>* skipped);
    void addTexts(const std::vector<std::string>& texts, const std::vector<InputSource>& sources, const ModelInput& model,
                  std::vector<SkippedInput>* skipped);

    Shape shape_, targetShape_;
    std::vector<std::string> classNames_;
    std::vector<InputSource> sources_;
    std::vector<std::int64_t> zeros_;
    std::vector<Message> notes_;
    std::vector<float> images_;  // decoded samples (images, or texts' token ids), in order of imageSample_
    std::vector<std::int64_t> imageSample_;  // per sample: its row in images_, or -1 (a table's)
    std::int64_t padding_ = -1;  // a text classifier's padding id
    std::vector<Table> tables_;
};

// Reads every input in the order given (a folder's images sorted by name). Throws DataError
// naming the file (a damaged image, IDX or CSV file, an image of the wrong size or colour for
// the model with what it takes) or std::invalid_argument (no such file, a kind of file the
// model cannot take, a folder without images, no inputs at all). With `skipped`, a file that
// fails is recorded there and the others are still read (one bad image of many is no reason
// to predict none); only "no inputs at all" still throws.
std::shared_ptr<PredictionInputs> openPredictionInputs(const std::vector<std::string>& paths, const ModelInput& model,
                                                       std::vector<SkippedInput>* skipped = nullptr);
// Texts given as they are (`predict --text`) for a text classifier, named "text 1", "text 2",
// ...; std::invalid_argument for a model that does not read text, or a text it cannot encode.
std::shared_ptr<PredictionInputs> openPredictionTexts(const std::vector<std::string>& texts, const ModelInput& model);

}  // namespace ts

// Images of other sizes and colour modes (issue 44, point 2): dataset.resize crop keeps the aspect
// ratio (a centred square stays square), pad letterboxes, stretch distorts on purpose; the
// resize agrees with PIL's Lanczos (an independent implementation) within a stated tolerance;
// every format and colour mode the reader takes decodes to the documented values; image_shape
// defaults to the most common size; the run's notes count the resized images; a bad
// dataset.resize is refused with its line and column; random resized crop stays inside its
// ranges. Test images are written here with libvips (and PIL reads them back for the reference).
#include <QtTest>

// glib names a struct member `signals`, which Qt's keyword macro would turn into `public`.
#undef signals
#include <vips/vips.h>
#define signals Q_SIGNALS

#include <cmath>
#include <filesystem>
#include <fstream>

#include "data/dataset.h"
#include "data/image_decode.h"
#include "data/image_folder_dataset.h"
#include "blob_dataset.h"
#include "data/transforms.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "jobs/prediction_inputs.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/run_control.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

// Writes `pixels` (height x width x bands, interleaved; 8 or 16 bits) to `path`, the format
// and its options from the name ("a.webp[lossless]").
template <class T> void writeImage(const std::string& path, int width, int height, int bands, const std::vector<T>& pixels)
{
    fs::create_directories(fs::path(path.substr(0, path.find('['))).parent_path());
    const VipsBandFormat format = sizeof(T) == 1 ? VIPS_FORMAT_UCHAR : VIPS_FORMAT_USHORT;
    VipsImage* image = vips_image_new_from_memory_copy(pixels.data(), pixels.size() * sizeof(T), width, height, bands, format);
    QVERIFY(image);
    if (sizeof(T) == 2) image->Type = bands >= 3 ? VIPS_INTERPRETATION_RGB16 : VIPS_INTERPRETATION_GREY16;
    else image->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    const int failed = vips_image_write_to_file(image, path.c_str(), nullptr);
    g_object_unref(image);
    QVERIFY2(!failed, vips_error_buffer());
}

// A grey image of `width` x `height` at `background`, with a `side` x `side` square of 255 at its centre.
std::vector<std::uint8_t> squareImage(int width, int height, int side, std::uint8_t background)
{
    std::vector<std::uint8_t> p(std::size_t(width) * height, background);
    for (int y = (height - side) / 2; y < (height + side) / 2; ++y)
        for (int x = (width - side) / 2; x < (width + side) / 2; ++x) p[std::size_t(y) * width + x] = 255;
    return p;
}

std::vector<float> resized(const DecodedImage& image, int height, int width, ResizeMode mode)
{
    std::vector<float> out(std::size_t(image.channels) * height * width);
    resizeToPlanar(image, height, width, mode, out.data());
    return out;
}

// Columns and rows (of a one-channel height x width plane) holding a value above `threshold`.
std::pair<int, int> extentAbove(const std::vector<float>& plane, int height, int width, float threshold)
{
    int cols = 0, rows = 0;
    for (int x = 0; x < width; ++x) {
        bool any = false;
        for (int y = 0; y < height; ++y) any = any || plane[std::size_t(y) * width + x] > threshold;
        cols += any;
    }
    for (int y = 0; y < height; ++y) {
        bool any = false;
        for (int x = 0; x < width; ++x) any = any || plane[std::size_t(y) * width + x] > threshold;
        rows += any;
    }
    return {cols, rows};
}

int blackRows(const std::vector<float>& plane, int height, int width)
{
    int n = 0;
    for (int y = 0; y < height; ++y) {
        bool black = true;
        for (int x = 0; x < width; ++x) black = black && plane[std::size_t(y) * width + x] < 0.02f;
        n += black;
    }
    return n;
}

std::string systemPython()
{
    for (const char* p : {"/usr/bin/python3", "/bin/python3"})
        if (fs::exists(p)) return p;
    return {};
}

}  // namespace

class TestImageResize : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::string dir() const { return m_tmp.path().toStdString(); }

private slots:
    void initTestCase()
    {
        QVERIFY(!VIPS_INIT("tst_image_resize"));
        QVERIFY(m_tmp.isValid());
    }

    // A 120 x 60 image with a centred 40 x 40 square, made 30 x 30. crop: scale 1/2 (the short
    // side fits), so the square is 20 x 20; stretch: 1/4 across and 1/2 down, a 10 x 20 bar;
    // pad: scale 1/4 (the long side fits), a 10 x 10 square in a 30 x 15 picture, 15 black rows.
    void cropKeepsTheAspectRatioPadLetterboxesStretchDistorts()
    {
        const std::string path = dir() + "/wide.png";
        writeImage(path, 120, 60, 1, squareImage(120, 60, 40, 128));
        const DecodedImage image = decodeImageFile(path, 1);
        QCOMPARE(image.width, 120);
        QCOMPARE(image.height, 60);

        const auto crop = resized(image, 30, 30, ResizeMode::Crop);
        QCOMPARE(extentAbove(crop, 30, 30, 0.75f), std::make_pair(20, 20));
        QCOMPARE(blackRows(crop, 30, 30), 0);
        const auto stretch = resized(image, 30, 30, ResizeMode::Stretch);
        QCOMPARE(extentAbove(stretch, 30, 30, 0.75f), std::make_pair(10, 20));
        const auto pad = resized(image, 30, 30, ResizeMode::Pad);
        const auto [padCols, padRows] = extentAbove(pad, 30, 30, 0.75f);  // edges at fractional rows: +-1
        QVERIFY2(std::abs(padCols - 10) <= 1 && std::abs(padRows - 10) <= 1, qPrintable(QString("%1 x %2").arg(padCols).arg(padRows)));
        QCOMPARE(blackRows(pad, 30, 30), 15);
        QVERIFY(std::abs(pad[15 * 30 + 2] - 128 / 255.0f) < 2 / 255.0f);  // the picture's own grey
        // The same size is left as it is, in every mode.
        for (ResizeMode mode : {ResizeMode::Crop, ResizeMode::Pad, ResizeMode::Stretch}) {
            const auto same = resized(image, 60, 120, mode);
            for (std::size_t i = 0; i < same.size(); ++i) QCOMPARE(same[i], image.pixels[i] / 255.0f);
        }
    }

    // vips' antialiased resize against PIL's Lanczos (Image.LANCZOS, support 3), an independent
    // implementation, on a smooth RGB image shrunk 2.5x and 1.7x and enlarged 1.5x: within 3/255
    // everywhere but the outermost pixel ring (where the two treat the edge differently), and
    // within 1/255 on average. Skipped when the system python has no PIL (python3-pil).
    void resizeAgreesWithPil()
    {
        const std::string python = systemPython();
        if (python.empty() || QProcess::execute(QString::fromStdString(python), {"-c", "import PIL"}) != 0)
            QSKIP("no python3 with PIL (apt-get install python3-pil)");
        const int w = 100, h = 80;
        std::vector<std::uint8_t> rgb(std::size_t(w) * h * 3);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < 3; ++c)
                    rgb[(std::size_t(y) * w + x) * 3 + c] = std::uint8_t(
                        std::lround(127.5 + 100 * std::sin(0.07 * x + 0.9 * c) * std::cos(0.05 * y - 0.4 * c)));
        const std::string path = dir() + "/smooth.png";
        writeImage(path, w, h, 3, rgb);
        const DecodedImage image = decodeImageFile(path, 3);
        for (const auto& [tw, th] : std::vector<std::pair<int, int>>{{40, 32}, {59, 47}, {150, 120}}) {
            const std::string out = dir() + "/pil.raw";
            QProcess pil;
            pil.start(QString::fromStdString(python),
                      {"-c", "import sys; from PIL import Image; "
                             "im = Image.open(sys.argv[1]).convert('RGB').resize((int(sys.argv[2]), int(sys.argv[3])), Image.LANCZOS); "
                             "open(sys.argv[4], 'wb').write(im.tobytes())",
                       QString::fromStdString(path), QString::number(tw), QString::number(th), QString::fromStdString(out)});
            QVERIFY(pil.waitForFinished(60000));
            QCOMPARE(pil.exitCode(), 0);
            std::ifstream in(out, std::ios::binary);
            const std::vector<std::uint8_t> ref{std::istreambuf_iterator<char>(in), {}};
            QCOMPARE(ref.size(), std::size_t(tw) * th * 3);
            const auto ours = resized(image, th, tw, ResizeMode::Stretch);
            double sum = 0, worst = 0;
            std::size_t n = 0;
            for (int c = 0; c < 3; ++c)
                for (int y = 1; y < th - 1; ++y)
                    for (int x = 1; x < tw - 1; ++x) {
                        const double d = std::abs(ours[(std::size_t(c) * th + y) * tw + x] * 255.0 -
                                                  ref[(std::size_t(y) * tw + x) * 3 + c]);
                        sum += d, ++n, worst = std::max(worst, d);
                    }
            qInfo("%dx%d: worst %.2f/255, mean %.3f/255", tw, th, worst, sum / n);
            const bool shrinks = tw < w;
            QVERIFY2(worst <= (shrinks ? 3.0 : 5.0), qPrintable(QString("%1x%2: worst %3/255").arg(tw).arg(th).arg(worst)));
            QVERIFY2(sum / n <= (shrinks ? 0.5 : 2.0), qPrintable(QString("%1x%2: mean %3/255").arg(tw).arg(th).arg(sum / n)));
        }
    }

    // Every format and colour mode decodes to the documented values: 16 bits scaled by 1/257,
    // alpha composited on black, RGB to grey with the 601 weights, grey to RGB repeated.
    void formatsAndColourModes()
    {
        const int w = 6, h = 4;
        const std::vector<std::uint8_t> rgb = [&] {
            std::vector<std::uint8_t> p;
            for (int i = 0; i < w * h; ++i) p.insert(p.end(), {255, 0, std::uint8_t(i * 10)});
            return p;
        }();
        for (const char* name : {"a.png", "a.webp[lossless]", "a.tif", "a.bmp", "a.gif"}) {
            const std::string path = dir() + "/formats/" + name;
            writeImage(path, w, h, 3, rgb);
            const std::string file = path.substr(0, path.find('['));
            QVERIFY2(isImageFileName(file), name);
            const ImageSize size = imageFileSize(file);
            QCOMPARE(size.width, w);
            QCOMPARE(size.height, h);
            const DecodedImage colour = decodeImageFile(file, 3);
            QCOMPARE(colour.channels, 3);
            for (std::size_t i = 0; i < rgb.size(); ++i)
                QVERIFY2(std::abs(int(colour.pixels[i]) - int(rgb[i])) <= (std::string(name) == "a.gif" ? 8 : 0),
                         qPrintable(QString("%1: byte %2: %3, wrote %4").arg(name).arg(i).arg(colour.pixels[i]).arg(rgb[i])));
            const DecodedImage grey = decodeImageFile(file, 1);  // red: 0.299 * 255 = 76.2, plus blue's share
            QVERIFY2(std::abs(int(grey.pixels[0]) - 76) <= 1, qPrintable(QString("%1: %2").arg(name).arg(grey.pixels[0])));
        }
        // 16-bit grey and RGB: 32896 / 257 = 128; 65535 -> 255.
        writeImage(dir() + "/modes/grey16.png", 2, 1, 1, std::vector<std::uint16_t>{32896, 65535});
        DecodedImage d = decodeImageFile(dir() + "/modes/grey16.png", 1);
        QCOMPARE(d.pixels, (std::vector<std::uint8_t>{128, 255}));
        writeImage(dir() + "/modes/rgb16.png", 1, 1, 3, std::vector<std::uint16_t>{65535, 0, 12850});
        d = decodeImageFile(dir() + "/modes/rgb16.png", 3);
        QCOMPARE(d.pixels, (std::vector<std::uint8_t>{255, 0, 50}));
        QVERIFY(imageFileSize(dir() + "/modes/rgb16.png").colour);
        QVERIFY(!imageFileSize(dir() + "/modes/grey16.png").colour);
        // Alpha composited on black: (200, 100, 50) at alpha 128 -> about half; alpha 0 -> black.
        writeImage(dir() + "/modes/rgba.png", 2, 1, 4, std::vector<std::uint8_t>{200, 100, 50, 128, 200, 100, 50, 0});
        d = decodeImageFile(dir() + "/modes/rgba.png", 3);
        QCOMPARE(d.channels, 3);
        const std::vector<int> expected{100, 50, 25, 0, 0, 0};
        for (std::size_t i = 0; i < expected.size(); ++i) QVERIFY(std::abs(int(d.pixels[i]) - expected[i]) <= 1);
        writeImage(dir() + "/modes/greya.png", 1, 1, 2, std::vector<std::uint8_t>{255, 51});
        d = decodeImageFile(dir() + "/modes/greya.png", 3);  // grey + alpha: 255 * 51 / 255, repeated
        QCOMPARE(d.pixels, (std::vector<std::uint8_t>{51, 51, 51}));
        QVERIFY(!imageFileSize(dir() + "/modes/greya.png").colour);
        // 16-bit RGBA: both at once.
        writeImage(dir() + "/modes/rgba16.png", 1, 1, 4, std::vector<std::uint16_t>{65535, 65535, 65535, 32768});
        d = decodeImageFile(dir() + "/modes/rgba16.png", 1);
        QVERIFY(std::abs(int(d.pixels[0]) - 128) <= 1);
        // A file of another kind is named, with what the reader takes.
        { std::ofstream(dir() + "/modes/x.png") << "not an image"; }
        try {
            decodeImageFile(dir() + "/modes/x.png", 1);
            QFAIL("accepted a text file");
        } catch (const DataError& e) {
            QCOMPARE(std::string(e.what()), dir() + "/modes/x.png: byte 0: not an image TrainStudio reads (PNG, JPEG, WebP, TIFF, BMP or GIF)");
        }
    }

    // A folder of 3 classes, images of several sizes and modes: image_shape defaults to the most
    // common size (3 channels when any image has colour), the notes say so and count the images
    // of other sizes; samples come out in each mode with the expected content.
    // Predict takes the formats training takes: a folder of WebP, TIFF and GIF images is read
    // whole, and what is no image is left out and said.
    void predictTakesWhatTrainingTakes()
    {
        const std::string root = dir() + "/predict";
        writeImage(root + "/a.webp[lossless]", 20, 20, 3, std::vector<std::uint8_t>(20 * 20 * 3, 90));
        writeImage(root + "/b.tif", 30, 20, 1, std::vector<std::uint8_t>(30 * 20, 200));
        writeImage(root + "/c.gif", 20, 20, 1, std::vector<std::uint8_t>(20 * 20, 40));
        { std::ofstream(root + "/notes.txt") << "not an image"; }
        ModelInput model;
        model.format = "image_folder";
        model.sampleShape = Shape({1, 20, 20});
        model.classNames = {"x", "y"};
        const auto inputs = openPredictionInputs({root}, model);
        QCOMPARE(inputs->size(), std::int64_t(3));
        const std::vector<Message>& notes = inputs->notes();
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const Message& m) {
            return m.id == "predict.folder_others" && m.text.find("WebP") != std::string::npos;
        }));
    }

    void folderDefaultsToTheMostCommonSizeAndSaysWhatItDid()
    {
        const std::string root = dir() + "/folder";
        writeImage(root + "/a/1.png", 40, 30, 1, std::vector<std::uint8_t>(40 * 30, 10));
        writeImage(root + "/a/2.png", 40, 30, 1, std::vector<std::uint8_t>(40 * 30, 20));
        writeImage(root + "/b/3.jpg", 40, 30, 3, std::vector<std::uint8_t>(40 * 30 * 3, 200));
        writeImage(root + "/b/4.png", 138, 57, 1, squareImage(138, 57, 30, 128));
        writeImage(root + "/c/5.webp[lossless]", 20, 20, 4, std::vector<std::uint8_t>(20 * 20 * 4, 255));
        writeImage(root + "/c/6.png", 17, 90, 1, std::vector<std::uint16_t>(17 * 90, 65535));
        { std::ofstream(root + "/c/notes.txt") << "not listed"; }

        DatasetSpec spec;
        spec.format = "image_folder";
        spec.path = root;
        spec.validationFraction = 0;
        const DatasetSplits s = openDataset(spec, "", "");
        QCOMPARE(s.train->size(), std::int64_t(6));
        QCOMPARE(s.train->sampleShape(), Shape({3, 30, 40}));
        QCOMPARE(s.notes.size(), std::size_t(2));
        QCOMPARE(s.notes[0].id, std::string("data.image_shape_default"));
        QCOMPARE(s.notes[0].text, std::string("dataset.image_shape is not given: [3, 30, 40], from the most common image size "
                                              "40x30 (3 of 6 images; at most 256 pixels a side)"));
        QCOMPARE(s.notes[1].id, std::string("data.images_resized_crop"));
        QCOMPARE(s.notes[1].text, std::string("3 of 6 images differ from 40x30: resized keeping the aspect ratio and "
                                              "centre-cropped (dataset.resize: crop)"));
        QCOMPARE(s.notes[1].args, (std::vector<std::string>{"3", "6", "40x30"}));

        // Given, and every image that size but one: one note, in the mode's words.
        spec.imageShape = {1, 30, 40};
        spec.resize = "pad";
        DatasetSplits g = openDataset(spec, "", "");
        QCOMPARE(g.notes.size(), std::size_t(1));
        QCOMPARE(g.notes[0].text, std::string("3 of 6 images differ from 40x30: resized keeping the aspect ratio and padded "
                                              "with black (dataset.resize: pad)"));
        spec.resize = "stretch";
        g = openDataset(spec, "", "");
        QCOMPARE(g.notes[0].id, std::string("data.images_resized_stretch"));

        // The 17 x 90 white 16-bit image padded into 40 x 30: a white column band, black at the sides.
        ImageFolderDataset padded(root, {1, 30, 40}, "p", {}, ResizeMode::Pad);
        std::vector<float> sample(30 * 40);
        padded.get(5, sample.data());
        QVERIFY(sample[15 * 40 + 20] > 0.98f);
        QVERIFY(sample[15 * 40 + 0] < 0.02f && sample[15 * 40 + 39] < 0.02f);
        const auto [cols, rows] = extentAbove(sample, 30, 40, 0.5f);
        QVERIFY2(cols >= 5 && cols <= 7, qPrintable(QString::number(cols)));  // 17 * 30 / 90 = 5.7
        QCOMPARE(rows, 30);
        // The opaque white WebP (alpha 255) stays white in RGB.
        ImageFolderDataset colour(root, {3, 30, 40}, "c");
        std::vector<float> rgb(3 * 30 * 40);
        colour.get(4, rgb.data());
        for (float v : rgb) QVERIFY(v > 0.98f);

        // An experiment without image_shape: its model's input is that shape (relative to the
        // file's folder), and the spec keeps image_shape unset, as written.
        const std::string yaml = dir() + "/folder.yaml";
        {
            std::ofstream(yaml) << "dataset: {format: image_folder, path: folder}\n"
                                   "model:\n  layers:\n    - Flatten\n    - Linear: {out_features: 3}\n    - CrossEntropy\n";
        }
        const ExperimentSpec fromFile = loadExperiment(yaml);
        QVERIFY(fromFile.dataset.imageShape.empty());
        QCOMPARE(fromFile.model.inputs.front().shape, Shape({3, 30, 40}));

        // Only greyscale images: one channel. A folder of large photos: the long side capped at 256.
        const std::string grey = dir() + "/grey";
        writeImage(grey + "/a/1.png", 600, 300, 1, std::vector<std::uint8_t>(600 * 300, 1));
        writeImage(grey + "/b/2.png", 600, 300, 1, std::vector<std::uint8_t>(600 * 300, 2));
        writeImage(grey + "/b/3.png", 30, 30, 1, std::vector<std::uint8_t>(30 * 30, 2));
        QCOMPARE(ImageFolderDataset(grey, {}, "g").sampleShape(), Shape({1, 128, 256}));
    }

    // A training job on an image folder of mixed sizes: the run's stored log says once how many
    // images were resized and how, and which image_shape was chosen.
    void theRunLogSaysWhatWasResized()
    {
        const std::string root = dir() + "/run_folder";
        for (int i = 0; i < 6; ++i) {
            const bool odd = i % 2;
            writeImage(root + (odd ? "/a/" : "/b/") + std::to_string(i) + ".png", odd ? 12 : 20, odd ? 12 : 9, 1,
                       std::vector<std::uint8_t>(std::size_t(odd ? 144 : 180), std::uint8_t(40 * i)));
        }
        writeImage(root + "/a/6.png", 12, 12, 1, std::vector<std::uint8_t>(144, 7));  // 4 of 7 are 12 x 12
        const std::string yaml = dir() + "/run.yaml";
        {
            std::ofstream(yaml) << "dataset: {format: image_folder, path: run_folder, resize: pad, validation_fraction: 0}\n"
                                   "model:\n  layers:\n    - Flatten\n    - Linear: {out_features: 2}\n    - CrossEntropy\n"
                                   "training: {epochs: 1, batch_size: 4, device: cpu}\n";
        }
        JobEnvironment env;
        env.workspaceDir = dir() + "/ws";
        env.cacheDir = dir() + "/cache";
        env.systemSampleSeconds = 0;
        test::Recorder rec;
        RunControl control;
        const JobResult result = runJob(TrainJob{.experiment = loadExperiment(yaml)}, env, control, rec);
        QVERIFY2(result.finished.outcome == FinishedEvent::Outcome::Finished, result.finished.message.text.c_str());
        std::vector<std::string> lines;
        for (const LogLine& l : RunReader(Workspace::open(env.workspaceDir)).logs(result.runId)) lines.push_back(l.message.text);
        const auto count = [&](const std::string& text) { return std::count(lines.begin(), lines.end(), text); };
        QCOMPARE(count("3 of 7 images differ from 12x12: resized keeping the aspect ratio and padded with black "
                       "(dataset.resize: pad)"), std::ptrdiff_t(1));
        QCOMPARE(count("dataset.image_shape is not given: [1, 12, 12], from the most common image size 12x12 (4 of 7 "
                       "images; at most 256 pixels a side)"), std::ptrdiff_t(1));
    }

    // dataset.resize is read, written back and refused when unknown, with line and column.
    void resizeKeyInTheExperimentFile()
    {
        const std::string base = "name: t\ndataset:\n  format: image_folder\n  path: /nowhere\n  image_shape: [3, 8, 8]\n";
        const std::string tail = "model:\n  layers:\n    - Flatten\n    - Linear: {out_features: 2}\n    - CrossEntropy\n";
        QCOMPARE(parseExperiment(base + tail, "x.yaml").dataset.resize, std::string("crop"));
        const ExperimentSpec pad = parseExperiment(base + "  resize: pad\n" + tail, "x.yaml");
        QCOMPARE(pad.dataset.resize, std::string("pad"));
        QVERIFY(experimentToYaml(pad).find("resize: pad") != std::string::npos);
        QCOMPARE(parseExperiment(experimentToYaml(pad), "x.yaml").dataset.resize, std::string("pad"));
        try {
            parseExperiment(base + "  resize: squash\n" + tail, "x.yaml");
            QFAIL("accepted resize: squash");
        } catch (const ExperimentError& e) {
            QVERIFY2(std::string(e.what()).rfind("x.yaml:6:11: resize: ", 0) == 0, e.what());
            QVERIFY2(std::string(e.what()).find("crop, pad or stretch") != std::string::npos ||
                         std::string(e.what()).find("crop, pad, stretch") != std::string::npos,
                     e.what());
        }
        const ExperimentSpec rrc =
            parseExperiment(base + "  augment: {random_resized_crop: 0.08}\n" + tail, "x.yaml");
        QCOMPARE(rrc.dataset.randomResizedCrop, 0.08);
        try {
            parseExperiment(base + "  augment: {random_resized_crop: 1.5}\n" + tail, "x.yaml");
            QFAIL("accepted random_resized_crop: 1.5");
        } catch (const ExperimentError& e) {
            QVERIFY2(std::string(e.what()).rfind("x.yaml:6:", 0) == 0, e.what());
        }
    }

    // Random resized crop: parts of at least the given area fraction with a ratio near [3/4, 4/3],
    // drawn the same for the same seed, resized back to the whole; a constant image stays
    // constant; evaluation does none; the other augmentations' draws do not change with it on.
    void randomResizedCropStaysInItsRanges()
    {
        DatasetSpec spec;
        spec.randomResizedCrop = 0.25;
        const DatasetStatistics none;
        const Shape shape({1, 32, 48});
        const Transforms train(spec, none, shape, true);
        QVERIFY(train.resizedCropping());
        QVERIFY(!Transforms(spec, none, shape, false).resizedCropping());
        int distinct = 0;
        for (std::int64_t position = 0; position < 200; ++position) {
            const Augmentation a = train.draw(7, 1, position);
            QVERIFY(a.partRows > 0 && a.partCols > 0);
            QVERIFY(a.partTop >= 0 && a.partTop + a.partRows <= 32);
            QVERIFY(a.partLeft >= 0 && a.partLeft + a.partCols <= 48);
            const double area = double(a.partRows * a.partCols) / (32 * 48), ratio = double(a.partCols) / a.partRows;
            QVERIFY2(area >= 0.25 * 0.85 && area <= 1.0, qPrintable(QString::number(area)));
            QVERIFY2(ratio >= 0.75 * 0.85 && ratio <= 4.0 / 3 * 1.15, qPrintable(QString::number(ratio)));
            const Augmentation again = train.draw(7, 1, position);
            QCOMPARE(again.partTop, a.partTop);
            QCOMPARE(again.partCols, a.partCols);
            distinct += a.partRows != 32 || a.partCols != 48;
        }
        QVERIFY(distinct > 150);
        // Applied: a constant stays constant; a left-to-right ramp's values stay in its range and
        // the part's left edge becomes the sample's.
        const Augmentation a = train.draw(7, 1, 3);
        std::vector<float> flat(32 * 48, 0.25f), scratch;
        train.apply(flat.data(), a, scratch);
        for (float v : flat) QVERIFY(std::abs(v - 0.25f) < 1e-4f);
        std::vector<float> ramp(32 * 48);
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 48; ++x) ramp[std::size_t(y) * 48 + x] = x / 47.0f;
        train.apply(ramp.data(), a, scratch);
        const float left = a.partLeft / 47.0f, right = (a.partLeft + a.partCols - 1) / 47.0f;
        QVERIFY2(std::abs(ramp[16 * 48] - left) < 1.5f / 47, qPrintable(QString("%1 vs %2").arg(ramp[16 * 48]).arg(left)));
        QVERIFY2(std::abs(ramp[16 * 48 + 47] - right) < 1.5f / 47, qPrintable(QString("%1 vs %2").arg(ramp[16 * 48 + 47]).arg(right)));
        // Flips and padded crops draw from their own stream: the same with the resized crop on.
        spec.horizontalFlip = true;
        spec.randomCropPadding = 2;
        DatasetSpec without = spec;
        without.randomResizedCrop = 0;
        const Transforms with(spec, none, shape, true), plain(without, none, shape, true);
        for (std::int64_t position = 0; position < 20; ++position) {
            QCOMPARE(with.draw(3, 0, position).flip, plain.draw(3, 0, position).flip);
            QCOMPARE(with.draw(3, 0, position).cropX, plain.draw(3, 0, position).cropX);
        }
    }
};

QTEST_GUILESS_MAIN(TestImageResize)
#include "tst_image_resize.moc"

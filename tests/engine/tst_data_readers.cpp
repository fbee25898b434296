// Dataset readers (IDX, CIFAR-10, CSV, image folders), splits and cached statistics, on small
// generated files, damaged ones, and the installed Fashion-MNIST.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <png.h>
#include <zlib.h>
#include <cstdio>
#include <jpeglib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

#include "data/cifar_dataset.h"
#include "data/csv_dataset.h"
#include "data/data_files.h"
#include "data/dataset_statistics.h"
#include "data/idx_dataset.h"
#include "data/image_decode.h"
#include "data/image_folder_dataset.h"
#include "data/subset_dataset.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

void writeFile(const std::string& path, const Bytes& bytes, bool gzip = false)
{
    fs::create_directories(fs::path(path).parent_path());
    if (gzip) {
        gzFile f = gzopen(path.c_str(), "wb");
        QVERIFY(f);
        QCOMPARE(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), int(bytes.size()));
        gzclose(f);
        return;
    }
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void writeText(const std::string& path, const std::string& text)
{
    writeFile(path, Bytes(text.begin(), text.end()));
}

void put32(Bytes& b, std::uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8)
        b.push_back(static_cast<std::uint8_t>(v >> s));
}

// An idx3 file of n images, rows x cols, pixel (i, j) = (i * 7 + j) % 256.
Bytes idxImages(std::uint32_t n, std::uint32_t rows, std::uint32_t cols, std::uint32_t magic = 0x803)
{
    Bytes b;
    put32(b, magic);
    put32(b, n);
    put32(b, rows);
    put32(b, cols);
    for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t j = 0; j < rows * cols; ++j)
            b.push_back(static_cast<std::uint8_t>((i * 7 + j) % 256));
    return b;
}

Bytes idxLabels(std::uint32_t n)
{
    Bytes b;
    put32(b, 0x801);
    put32(b, n);
    for (std::uint32_t i = 0; i < n; ++i)
        b.push_back(static_cast<std::uint8_t>(i % 10));
    return b;
}

// Writes the four IDX files (train: n images, test: 5) into dir.
void writeIdxDir(const std::string& dir, std::uint32_t n, bool gzip)
{
    const std::string ext = gzip ? ".gz" : "";
    writeFile(dir + "/train-images-idx3-ubyte" + ext, idxImages(n, 4, 5), gzip);
    writeFile(dir + "/train-labels-idx1-ubyte" + ext, idxLabels(n), gzip);
    writeFile(dir + "/t10k-images-idx3-ubyte" + ext, idxImages(5, 4, 5), gzip);
    writeFile(dir + "/t10k-labels-idx1-ubyte" + ext, idxLabels(5), gzip);
}

// Runs f, which must throw DataError; returns it.
template <class F>
DataError expectDataError(F f)
{
    try {
        f();
    } catch (const DataError& e) {
        return e;
    }
    return DataError("(nothing thrown)", -2, "(nothing thrown)");
}

bool contains(const std::string& text, const std::string& part)
{
    if (text.find(part) != std::string::npos)
        return true;
    qWarning("'%s' does not contain '%s'", text.c_str(), part.c_str());
    return false;
}

void writePng(const std::string& path, int w, int h, int channels, const Bytes& pixels)
{
    fs::create_directories(fs::path(path).parent_path());
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = static_cast<png_uint_32>(w);
    image.height = static_cast<png_uint_32>(h);
    image.format = channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    QVERIFY(png_image_write_to_file(&image, path.c_str(), 0, pixels.data(), 0, nullptr));
}

void writeJpeg(const std::string& path, int w, int h, const Bytes& rgb)
{
    fs::create_directories(fs::path(path).parent_path());
    FILE* f = std::fopen(path.c_str(), "wb");
    QVERIFY(f);
    jpeg_compress_struct c;
    jpeg_error_mgr err;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, f);
    c.image_width = static_cast<JDIMENSION>(w);
    c.image_height = static_cast<JDIMENSION>(h);
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 100, TRUE);
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = const_cast<JSAMPLE*>(rgb.data() + static_cast<std::size_t>(c.next_scanline) * w * 3);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    std::fclose(f);
}

// A 4 x 4 JPEG in print colours (CMYK, or YCCK as Adobe writes them).
void writeCmykJpeg(const std::string& path, J_COLOR_SPACE space)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    QVERIFY(f);
    jpeg_compress_struct c;
    jpeg_error_mgr err;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, f);
    c.image_width = 4;
    c.image_height = 4;
    c.input_components = 4;
    c.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, space);
    jpeg_start_compress(&c, TRUE);
    JSAMPLE row[16];
    for (int i = 0; i < 16; ++i) row[i] = JSAMPLE(i * 15);
    while (c.next_scanline < c.image_height) {
        JSAMPROW r = row;
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    std::fclose(f);
}

// 10485760 -> "10,485,760", written here rather than taken from the code under test.
std::string groupDigitsText(std::size_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::vector<float> sample(const Dataset& d, std::int64_t i, std::int64_t* label = nullptr)
{
    std::vector<float> out(static_cast<std::size_t>(d.sampleShape().numel()));
    const std::int64_t l = d.get(i, out.data());
    if (label)
        *label = l;
    return out;
}

}  // namespace

class TestDataReaders : public QObject {
    Q_OBJECT
private slots:
    // --- IDX -------------------------------------------------------------------------------
    void idxPlainAndGzip()
    {
        QTemporaryDir tmp;
        for (bool gzip : {false, true}) {
            const std::string dir = tmp.path().toStdString() + (gzip ? "/fashion-gz" : "/mnist-plain");
            writeIdxDir(dir, 12, gzip);
            const std::string ext = gzip ? ".gz" : "";
            IdxDataset d(dir + "/train-images-idx3-ubyte" + ext, dir + "/train-labels-idx1-ubyte" + ext,
                         idxClassNames(dir), "t");
            QCOMPARE(d.size(), std::int64_t(12));
            QCOMPARE(d.sampleShape(), (Shape{1, 4, 5}));
            std::int64_t label = -1;
            const auto px = sample(d, 11, &label);
            QCOMPARE(label, std::int64_t(1));
            QCOMPARE(d.labels()[3], std::int64_t(3));
            QCOMPARE(px[0], float((11 * 7) % 256) / 255.0f);
            QCOMPARE(px[19], float((11 * 7 + 19) % 256) / 255.0f);
            QCOMPARE(d.classNames()[0], std::string(gzip ? "T-shirt/top" : "0"));
            QCOMPARE(d.classNames()[9], std::string(gzip ? "Ankle boot" : "9"));
        }
    }

    // The name comes from the folder's own name: a copy elsewhere is not called MNIST.
    void idxDatasetNames()
    {
        QCOMPARE(idxDatasetName("/usr/share/datasets/fashion-mnist"), std::string("Fashion-MNIST"));
        QCOMPARE(idxDatasetName("/data/MNIST/"), std::string("MNIST"));
        QCOMPARE(idxDatasetName("/home/fashion/mnist"), std::string("MNIST"));
        QCOMPARE(idxDatasetName("/tmp/flipped-labels"), std::string("flipped-labels"));
        QCOMPARE(idxDatasetName("/tmp/flipped-labels//"), std::string("flipped-labels"));
        QCOMPARE(idxClassNames("/tmp/Fashion_copy/")[9], std::string("Ankle boot"));
        QCOMPARE(idxClassNames("/tmp/flipped-labels")[9], std::string("9"));
    }

    void idxWrongMagic()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeIdxDir(dir, 10, true);
        const std::string images = dir + "/train-images-idx3-ubyte.gz";
        writeFile(images, idxImages(10, 4, 5, 0x802), true);
        const DataError e = expectDataError([&] { IdxDataset(images, dir + "/train-labels-idx1-ubyte.gz", idxClassNames(dir), "t"); });
        QCOMPARE(e.file(), images);
        QCOMPARE(e.position(), std::int64_t(0));
        QVERIFY(contains(e.what(), images + ": byte 0: magic 0x00000802 is not an IDX image file (expected 0x00000803)"));
    }

    // A gzip stream that goes on past what the header announces (a megabyte of zeros, then a
    // damaged checksum: a bomb would be gigabytes) is read only as far as the header says.
    void idxGzipIsReadOnlyAsFarAsItsHeaderSays()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeIdxDir(dir, 10, true);
        const std::string images = dir + "/train-images-idx3-ubyte.gz";
        Bytes data = idxImages(10, 4, 5);
        data.resize(data.size() + (1 << 20), 0);
        writeFile(images, data, true);
        Bytes gz;
        {
            std::ifstream in(images, std::ios::binary);
            gz.assign(std::istreambuf_iterator<char>(in), {});
        }
        QVERIFY(gz.size() < 8192);
        gz[gz.size() - 8] ^= 0xFF;  // the trailer's CRC-32 of the whole stream
        writeFile(images, gz);
        IdxDataset d(images, dir + "/train-labels-idx1-ubyte.gz", idxClassNames(dir), "t");
        QCOMPARE(d.size(), std::int64_t(10));
        std::vector<float> x(20);
        d.get(9, x.data());
        QCOMPARE(x[19], static_cast<float>((9 * 7 + 19) % 256) / 255.0f);
    }

    void idxTruncatedPixels()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeIdxDir(dir, 10, false);
        Bytes images = idxImages(10, 4, 5);
        images.resize(16 + 50);
        writeFile(dir + "/train-images-idx3-ubyte", images);
        const DataError e = expectDataError([&] {
            IdxDataset(dir + "/train-images-idx3-ubyte", dir + "/train-labels-idx1-ubyte", idxClassNames(dir), "t");
        });
        QCOMPARE(e.file(), dir + "/train-images-idx3-ubyte");
        QCOMPARE(e.position(), std::int64_t(16));
        QVERIFY(contains(e.what(), "byte 16: expected 200 bytes of pixels, the file ends after 50"));
    }

    // Damaged test files leave the training files usable for looking and checking, and keep
    // their error; training (openDataset) refuses the dataset with it.
    void damagedTestFilesKeepTheTrainingFiles()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeIdxDir(dir, 10, false);
        Bytes images = idxImages(5, 4, 5);
        images.resize(16 + 30);
        writeFile(dir + "/t10k-images-idx3-ubyte", images);
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = dir;
        const DatasetFiles files = openDatasetFiles(spec, "");
        QVERIFY(files.train && files.train->size() == 10);
        QVERIFY(!files.test);
        QVERIFY(files.testError.has_value());
        QCOMPARE(files.testError->file(), dir + "/t10k-images-idx3-ubyte");
        QCOMPARE(files.testError->position(), std::int64_t(16));
        const DataError e = expectDataError([&] { openDataset(spec, "", ""); });
        QCOMPARE(e.file(), dir + "/t10k-images-idx3-ubyte");
        QVERIFY(contains(e.what(), "the file ends after 30"));
    }

    void idxCountMismatchAndBadLabel()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeIdxDir(dir, 10, false);
        const std::string images = dir + "/train-images-idx3-ubyte", labels = dir + "/train-labels-idx1-ubyte";
        writeFile(labels, idxLabels(9));
        DataError e = expectDataError([&] { IdxDataset(images, labels, idxClassNames(dir), "t"); });
        QCOMPARE(e.file(), labels);
        QCOMPARE(e.position(), std::int64_t(4));
        QVERIFY(contains(e.what(), "9 labels, but " + images + " holds 10 images"));

        Bytes bad = idxLabels(10);
        bad[8 + 3] = 12;
        writeFile(labels, bad);
        e = expectDataError([&] { IdxDataset(images, labels, idxClassNames(dir), "t"); });
        QCOMPARE(e.file(), labels);
        QCOMPARE(e.position(), std::int64_t(11));
        QVERIFY(contains(e.what(), "byte 11: label 12 of image 3 is outside [0, 10)"));
    }

    void idxCorruptGzip()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeIdxDir(dir, 2000, true);
        const std::string images = dir + "/train-images-idx3-ubyte.gz";
        Bytes gz;
        {
            std::ifstream in(images, std::ios::binary);
            gz.assign(std::istreambuf_iterator<char>(in), {});
        }
        // Damage the middle of the deflate stream, then separately cut the file short.
        for (int variant = 0; variant < 2; ++variant) {
            Bytes damaged = gz;
            if (variant == 0)
                for (std::size_t i = damaged.size() / 2; i < damaged.size() / 2 + 16; ++i)
                    damaged[i] ^= 0x5a;
            else
                damaged.resize(damaged.size() / 2);
            writeFile(images, damaged);
            const DataError e = expectDataError([&] { IdxDataset(images, dir + "/train-labels-idx1-ubyte.gz", idxClassNames(dir), "t"); });
            QCOMPARE(e.file(), images);
            QVERIFY(e.position() >= 0);
            QVERIFY(contains(e.what(), images + ": byte "));
            QVERIFY(contains(e.what(), "corrupt gzip stream"));
        }
    }

    void idxMissingFilesNameThePackage()
    {
        QTemporaryDir tmp;
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = "nothing-here";
        const DataError e = expectDataError([&] { openDataset(spec, tmp.path().toStdString(), ""); });
        QVERIFY(contains(e.file(), tmp.path().toStdString() + "/nothing-here/train-images-idx3-ubyte"));
        QVERIFY(contains(e.what(), "dataset-fashion-mnist"));
    }

    // --- CIFAR-10 --------------------------------------------------------------------------
    void cifarBatches()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString() + "/cifar";
        auto batch = [](int records, int firstLabel) {
            Bytes b;
            for (int r = 0; r < records; ++r) {
                b.push_back(static_cast<std::uint8_t>((firstLabel + r) % 10));
                for (int i = 0; i < 3072; ++i)
                    b.push_back(static_cast<std::uint8_t>((r + i) % 256));
            }
            return b;
        };
        writeFile(dir + "/data_batch_1.bin", batch(3, 0));
        writeFile(dir + "/data_batch_2.bin", batch(4, 3));
        writeFile(dir + "/test_batch.bin", batch(2, 5));
        writeText(dir + "/batches.meta.txt", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n\n");
        DatasetSpec spec;
        spec.format = "cifar10";
        spec.path = dir;
        spec.validationFraction = 0;
        const DatasetSplits s = openDataset(spec, "", "");
        QCOMPARE(s.train->size(), std::int64_t(7));
        QCOMPARE(s.test->size(), std::int64_t(2));
        QVERIFY(!s.validation);
        QCOMPARE(s.train->classNames()[9], std::string("j"));
        std::int64_t label = -1;
        const auto px = sample(*s.train, 4, &label);  // batch 2, record 1
        QCOMPARE(label, std::int64_t(4));
        QCOMPARE(px[0], 1.0f / 255.0f);            // red plane, first pixel
        QCOMPARE(px[1024], float(1025 % 256) / 255.0f);  // green plane

        Bytes cut = batch(3, 0);
        cut.resize(3 * 3073 - 10);
        writeFile(dir + "/data_batch_2.bin", cut);
        DataError e = expectDataError([&] { openDataset(spec, "", ""); });
        QCOMPARE(e.file(), dir + "/data_batch_2.bin");
        QCOMPARE(e.position(), std::int64_t(2 * 3073));
        QVERIFY(contains(e.what(), "not a whole number of 3073-byte CIFAR-10 records"));

        Bytes badLabel = batch(3, 0);
        badLabel[2 * 3073] = 10;
        writeFile(dir + "/data_batch_2.bin", badLabel);
        e = expectDataError([&] { openDataset(spec, "", ""); });
        QCOMPARE(e.position(), std::int64_t(2 * 3073));
        QVERIFY(contains(e.what(), "byte 6146: label 10 of record 2 is outside [0, 10)"));
    }

    // --- CSV -------------------------------------------------------------------------------
    void csvTable()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/data.csv";
        writeText(path, "name,age,height,species,patient\r\n"
                        "\"Smith, J\",30,1.5,dog,p1\r\n"
                        "\"say \"\"hi\"\"\",40,1.75,cat,p2\r\n"
                        "\r\n"
                        "x,50,2,bird,p1\r\n");
        CsvDataset d(path, "species", {}, "patient");
        QCOMPARE(d.size(), std::int64_t(3));
        QCOMPARE(d.featureNames(), (std::vector<std::string>{"age", "height"}));
        QCOMPARE(d.classNames(), (std::vector<std::string>{"bird", "cat", "dog"}));  // sorted
        QCOMPARE(d.labels(), (std::vector<std::int64_t>{2, 1, 0}));
        QCOMPARE(d.groups(), (std::vector<std::int64_t>{0, 1, 0}));
        QCOMPARE(sample(d, 1), (std::vector<float>{40.0f, 1.75f}));

        CsvDataset named(path, "age", {"height"}, "");
        QCOMPARE(named.classNames(), (std::vector<std::string>{"30", "40", "50"}));
        QCOMPARE(named.sampleShape(), (Shape{1}));

        const std::vector<CsvRecord> records = parseCsv("a,b\n\"1,\n2\",3\n4,5\n", "f");
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(records[1].fields[0], std::string("1,\n2"));
        QCOMPARE(records[2].line, std::int64_t(4));  // lines count physical lines
    }

    void csvIntegerLabelsSortNumerically()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/d.csv";
        writeText(path, "x,y\n1,10\n2,9\n3,2\n4,10\n");
        CsvDataset d(path, "y", {}, "");
        QCOMPARE(d.classNames(), (std::vector<std::string>{"2", "9", "10"}));
        QCOMPARE(d.labels(), (std::vector<std::int64_t>{2, 1, 0, 2}));
    }

    void csvErrors()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/data.csv";
        std::string text = "age,weight,label\n";
        for (int i = 2; i <= 20; ++i)
            text += (i == 17 ? std::string("abc") : std::to_string(i)) + ",1.5,0\n";
        writeText(path, text);
        DataError e = expectDataError([&] { CsvDataset(path, "label", {}, ""); });
        QCOMPARE(e.file(), path);
        QCOMPARE(e.position(), std::int64_t(17));
        QVERIFY(contains(e.what(), path + ":17: column 'age' is 'abc', not a (finite) number"));

        writeText(path, "a,b\n1,0\nnan,1\n");
        e = expectDataError([&] { CsvDataset(path, "b", {}, ""); });
        QVERIFY(contains(e.what(), ":3: column 'a' is 'nan', not a (finite) number"));
        writeText(path, text);

        e = expectDataError([&] { CsvDataset(path, "label", {"weight", "size"}, ""); });
        QCOMPARE(e.position(), std::int64_t(1));
        QVERIFY(contains(e.what(), "no feature column 'size'; the columns are 'age', 'weight', 'label'"));
        e = expectDataError([&] { CsvDataset(path, "class", {}, ""); });
        QVERIFY(contains(e.what(), "no label column 'class'"));

        writeText(path, "a,b\n1,2\n3\n");
        e = expectDataError([&] { CsvDataset(path, "b", {}, ""); });
        QCOMPARE(e.position(), std::int64_t(3));
        QVERIFY(contains(e.what(), ":3: 1 fields, but the header has 2"));

        writeText(path, "a,b\n1,\"2\n");
        e = expectDataError([&] { CsvDataset(path, "b", {}, ""); });
        QCOMPARE(e.position(), std::int64_t(2));
        QVERIFY(contains(e.what(), "quoted field is never closed"));
    }

    // --- Image folders ---------------------------------------------------------------------
    void imageFolderPngAndJpeg()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString() + "/shapes";
        // 4x2 grey PNG with a horizontal ramp; 4x2 RGB PNG; flat RGB JPEG.
        writePng(root + "/train/b_square/g.png", 4, 2, 1, {0, 60, 120, 180, 0, 60, 120, 180});
        Bytes rgb;
        for (int i = 0; i < 8; ++i)
            rgb.insert(rgb.end(), {255, 0, static_cast<std::uint8_t>(i * 30)});
        writePng(root + "/train/a_circle/c.png", 4, 2, 3, rgb);
        writeJpeg(root + "/train/a_circle/j.JPG", 8, 8, Bytes(8 * 8 * 3, 200));
        writeText(root + "/train/a_circle/notes.txt", "ignored");
        writePng(root + "/test/b_square/t.png", 2, 2, 1, {10, 20, 30, 40});

        DatasetSpec spec;
        spec.format = "image_folder";
        spec.path = root;
        spec.imageShape = {3, 2, 2};
        spec.validationFraction = 0;
        DatasetSplits s = openDataset(spec, "", "");
        QCOMPARE(s.train->size(), std::int64_t(3));
        QCOMPARE(s.test->size(), std::int64_t(1));
        QCOMPARE(s.train->classNames(), (std::vector<std::string>{"a_circle", "b_square"}));
        QCOMPARE(s.train->labels(), (std::vector<std::int64_t>{0, 0, 1}));
        QCOMPARE(s.test->labels(), (std::vector<std::int64_t>{1}));
        const auto jpeg = sample(*s.train, 1);  // j.JPG, flat 200
        for (float v : jpeg)
            QVERIFY(std::abs(v - 200.0f / 255.0f) < 3.0f / 255.0f);
        const auto grey = sample(*s.train, 2);  // grey replicated to 3 channels
        QCOMPARE(grey.size(), std::size_t(12));
        QCOMPARE(grey[0], grey[4]);
        QCOMPARE(grey[0], grey[8]);

        // Stretch 4x2 -> 2x2 averages neighbouring columns (antialiased): 0 and 60 near 30;
        // crop keeps the aspect ratio: the middle 2x2 of the ramp (60 and 120).
        ImageFolderDataset stretch(root + "/train", {1, 2, 2}, "s", {}, ResizeMode::Stretch);
        QVERIFY(std::abs(sample(stretch, 2)[0] - 30 / 255.0f) < 12 / 255.0f);
        ImageFolderDataset crop(root + "/train", {1, 2, 2}, "c");
        QCOMPARE(sample(crop, 2), (std::vector<float>{60 / 255.0f, 120 / 255.0f, 60 / 255.0f, 120 / 255.0f}));
        const auto red = sample(crop, 0);  // RGB (255, 0, b) to grey: luminance, about 0.3
        QVERIFY(red[0] > 0.2f && red[0] < 0.4f);
    }

    // A decompression bomb: a small file whose header claims 20,000 x 20,000 pixels (the PNG's IHDR
    // with its CRC recomputed, the JPEG's SOF0) is refused from the header, before any pixel memory.
    void imageTooLargeIsRefusedFromItsHeader()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString() + "/big";
        auto readAll = [](const std::string& path) {
            std::ifstream in(path, std::ios::binary);
            return Bytes(std::istreambuf_iterator<char>(in), {});
        };
        auto put32 = [](Bytes& b, std::size_t at, std::uint32_t v) {
            for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
        };
        writePng(root + "/a/p.png", 4, 4, 1, Bytes(16, 9));
        Bytes png = readAll(root + "/a/p.png");
        QCOMPARE(std::string(png.begin() + 12, png.begin() + 16), std::string("IHDR"));
        put32(png, 16, 20000);
        put32(png, 20, 20000);
        put32(png, 29, static_cast<std::uint32_t>(crc32(0, png.data() + 12, 17)));  // "IHDR" + 13 bytes
        writeFile(root + "/a/p.png", png);
        writeJpeg(root + "/a/j.jpg", 8, 8, Bytes(8 * 8 * 3, 50));
        Bytes jpeg = readAll(root + "/a/j.jpg");
        std::size_t sof = 2;
        while (sof + 9 < jpeg.size() && !(jpeg[sof] == 0xFF && jpeg[sof + 1] == 0xC0)) ++sof;
        QVERIFY(sof + 9 < jpeg.size());
        for (std::size_t at : {sof + 5, sof + 7}) {  // height, then width, big-endian 16 bits
            jpeg[at] = 20000 >> 8;
            jpeg[at + 1] = 20000 & 0xFF;
        }
        writeFile(root + "/a/j.jpg", jpeg);

        // The header alone still tells the size, for the Datasets page's size distribution.
        for (const char* name : {"/a/p.png", "/a/j.jpg"}) {
            const ImageSize size = imageFileSize(root + name);
            QCOMPARE(size.width, 20000);
            QCOMPARE(size.height, 20000);
        }
        QCOMPARE(expectDataError([&] { imageFileSize(root + "/missing.png"); }).file(), root + "/missing.png");

        ImageFolderDataset d(root, {1, 2, 2}, "x");
        QCOMPARE(d.size(), std::int64_t(2));
        for (std::int64_t i : {0, 1}) {
            const DataError e = expectDataError([&] { sample(d, i); });
            QVERIFY(contains(e.what(), "20000 x 20000 pixels, too large to decode"));
            QVERIFY(contains(e.what(), "shrink it or leave it out of the dataset"));
        }
    }

    // Damage inside a JPEG's entropy-coded data (not at its end) is an error, not an image of
    // grey filler or garbage.
    void jpegWithCorruptDataIsAnError()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/a/noisy.jpg";
        Bytes rgb(32 * 32 * 3);
        for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>(i * 31 % 251);
        writeJpeg(path, 32, 32, rgb);
        QCOMPARE(decodeImageFile(path, 3).width, 32);
        Bytes jpeg;
        {
            std::ifstream in(path, std::ios::binary);
            jpeg.assign(std::istreambuf_iterator<char>(in), {});
        }
        std::size_t sos = 2;
        while (sos + 1 < jpeg.size() && !(jpeg[sos] == 0xFF && jpeg[sos + 1] == 0xDA)) ++sos;
        QVERIFY(sos + 400 < jpeg.size());
        // Most of the scan data cut out, the end-of-image marker kept: libjpeg meets the marker
        // early and fills the rest in (a file cut at its end was already refused).
        QVERIFY(jpeg[jpeg.size() - 2] == 0xFF && jpeg[jpeg.size() - 1] == 0xD9);
        jpeg.erase(jpeg.begin() + static_cast<std::ptrdiff_t>(sos + 40), jpeg.end() - 2);
        writeFile(path, jpeg);
        const DataError e = expectDataError([&] { decodeImageFile(path, 3); });
        QCOMPARE(e.file(), path);
        QVERIFY2(contains(e.what(), path + ": damaged JPEG image (Corrupt JPEG data"), e.what());
    }

    void imageFolderCorruptImage()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString() + "/imgs";
        writePng(root + "/cat/ok.png", 2, 2, 1, {1, 2, 3, 4});
        writePng(root + "/dog/bad.png", 16, 16, 1, Bytes(256, 7));
        Bytes png;
        {
            std::ifstream in(root + "/dog/bad.png", std::ios::binary);
            png.assign(std::istreambuf_iterator<char>(in), {});
        }
        png.resize(png.size() - 30);  // the image data is cut short
        for (std::size_t i = 40; i < png.size(); ++i)
            png[i] ^= 0x33;
        writeFile(root + "/dog/bad.png", png);
        writeText(root + "/dog/fake.jpg", "not an image at all");
        writeJpeg(root + "/dog/short.jpg", 32, 32, Bytes(32 * 32 * 3, 90));
        Bytes jpeg;
        {
            std::ifstream in(root + "/dog/short.jpg", std::ios::binary);
            jpeg.assign(std::istreambuf_iterator<char>(in), {});
        }
        jpeg.resize(jpeg.size() * 2 / 3);
        writeFile(root + "/dog/short.jpg", jpeg);

        ImageFolderDataset d(root, {1, 2, 2}, "x");
        QCOMPARE(d.size(), std::int64_t(4));  // cat/ok.png, dog/bad.png, dog/fake.jpg, dog/short.jpg
        DataError e = expectDataError([&] { sample(d, 1); });
        QCOMPARE(e.file(), root + "/dog/bad.png");
        QVERIFY(contains(e.what(), root + "/dog/bad.png: damaged PNG image"));
        e = expectDataError([&] { sample(d, 2); });
        QCOMPARE(e.file(), root + "/dog/fake.jpg");
        QVERIFY(contains(e.what(), "not an image TrainStudio reads (PNG, JPEG, WebP, TIFF, BMP or GIF)"));
        e = expectDataError([&] { sample(d, 3); });
        QCOMPARE(e.file(), root + "/dog/short.jpg");
        QVERIFY(contains(e.what(), root + "/dog/short.jpg: damaged JPEG image"));
        // Opening computes the training statistics, which decodes every image: the error surfaces there.
        DatasetSpec spec;
        spec.format = "image_folder";
        spec.path = root;
        spec.imageShape = {1, 2, 2};
        spec.validationFraction = 0;
        e = expectDataError([&] { openDataset(spec, "", ""); });
        QVERIFY(e.file() == root + "/dog/bad.png" || e.file() == root + "/dog/fake.jpg" || e.file() == root + "/dog/short.jpg");
    }

    // --- Splits ----------------------------------------------------------------------------
    void splitSizesAndDeterminism()
    {
        const SplitIndices a = splitIndices(1000, 0.1, 7);
        QCOMPARE(a.validation.size(), std::size_t(100));
        QCOMPARE(a.train.size(), std::size_t(900));
        std::set<std::int64_t> all(a.train.begin(), a.train.end());
        all.insert(a.validation.begin(), a.validation.end());
        QCOMPARE(all.size(), std::size_t(1000));  // disjoint and complete
        QCOMPARE(splitIndices(1000, 0.1, 7).validation, a.validation);
        QVERIFY(splitIndices(1000, 0.1, 8).validation != a.validation);
        // Not simply the tail: the draw is shuffled.
        QVERIFY(a.validation.front() < 900);
        QVERIFY(splitIndices(10, 0.0, 1).validation.empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, splitIndices(10, 1.0, 1));
    }

    void groupedSplitKeepsGroupsTogether()
    {
        std::vector<std::int64_t> groups;
        for (int i = 0; i < 1000; ++i)
            groups.push_back((i * 37) % 50);  // 50 groups of 20, interleaved
        for (std::uint64_t seed = 0; seed < 5; ++seed) {
            const SplitIndices s = splitGroups(groups, 0.2, seed);
            std::set<std::int64_t> trainGroups, valGroups;
            for (auto i : s.train)
                trainGroups.insert(groups[static_cast<std::size_t>(i)]);
            for (auto i : s.validation)
                valGroups.insert(groups[static_cast<std::size_t>(i)]);
            for (auto g : valGroups)
                QVERIFY2(!trainGroups.count(g), "a group on both sides");
            QCOMPARE(s.validation.size(), std::size_t(200));
            QCOMPARE(s.train.size() + s.validation.size(), std::size_t(1000));
        }
        QVERIFY(splitGroups(groups, 0.2, 0).validation != splitGroups(groups, 0.2, 1).validation);

        // Through openDataset on a CSV with a group column.
        QTemporaryDir tmp;
        std::string text = "f,label,patient\n";
        for (int i = 0; i < 300; ++i)
            text += std::to_string(i) + "," + std::to_string(i % 3) + ",p" + std::to_string(i % 17) + "\n";
        writeText(tmp.path().toStdString() + "/t.csv", text);
        DatasetSpec spec;
        spec.format = "csv";
        spec.path = "t.csv";
        spec.labelColumn = "label";
        spec.groupColumn = "patient";
        spec.validationFraction = 0.25;
        const DatasetSplits splits = openDataset(spec, tmp.path().toStdString(), "");
        QCOMPARE(splits.train->sampleShape(), (Shape{1}));  // the group column is no feature
        std::set<int> trainPatients, valPatients;
        for (std::int64_t i = 0; i < splits.train->size(); ++i)
            trainPatients.insert(int(sample(*splits.train, i)[0]) % 17);
        for (std::int64_t i = 0; i < splits.validation->size(); ++i)
            valPatients.insert(int(sample(*splits.validation, i)[0]) % 17);
        for (int p : valPatients)
            QVERIFY(!trainPatients.count(p));
        QVERIFY(splits.validation->size() > 50 && splits.validation->size() < 100);
    }

    // --- Statistics and their cache --------------------------------------------------------
    void statisticsAreExact()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/s.csv";
        writeText(path, "a,b,y\n1000001,2,0\n1000003,4,1\n1000005,9,1\n");
        CsvDataset d(path, "y", {}, "");
        const DatasetStatistics s = computeStatistics(d);
        QCOMPARE(s.mean.size(), std::size_t(2));
        QCOMPARE(s.mean[0], 1000003.0);
        QVERIFY(std::abs(s.stddev[0] - std::sqrt(8.0 / 3.0)) < 1e-9);
        QVERIFY(std::abs(s.mean[1] - 5.0) < 1e-12);
        QVERIFY(std::abs(s.stddev[1] - std::sqrt(26.0 / 3.0)) < 1e-12);
        QCOMPARE(s.classCounts, (std::vector<std::int64_t>{1, 2}));
    }

    void statisticsAreCached()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString(), cache = dir + "/cache";
        writeText(dir + "/c.csv", "x,y\n1,0\n3,1\n");
        DatasetSpec spec;
        spec.format = "csv";
        spec.path = "c.csv";
        spec.labelColumn = "y";
        spec.validationFraction = 0;
        DatasetSplits s = openDataset(spec, dir, cache);
        QCOMPARE(s.trainStatistics.mean, std::vector<double>{2.0});
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(cache))
            files.push_back(entry.path());
        QCOMPARE(files.size(), std::size_t(1));
        const std::string cacheFile = files[0].string();

        // The second open reads the file: doctor its mean and see it come back.
        std::ifstream in(cacheFile);
        std::string text((std::istreambuf_iterator<char>(in)), {});
        in.close();
        const auto at = text.find("mean 2");
        QVERIFY(at != std::string::npos);
        text.replace(at, 6, "mean 42");
        writeText(cacheFile, text);
        s = openDataset(spec, dir, cache);
        QCOMPARE(s.trainStatistics.mean, std::vector<double>{42.0});
        QCOMPARE(s.trainStatistics.classCounts, (std::vector<std::int64_t>{1, 1}));

        // Other split settings are another cache entry.
        spec.splitSeed = 3;
        QCOMPARE(openDataset(spec, dir, cache).trainStatistics.mean, std::vector<double>{2.0});
        spec.splitSeed = 0;

        // A changed dataset file makes the entry stale: recomputed (and rewritten).
        writeText(dir + "/c.csv", "x,y\n1,0\n5,1\n");
        fs::last_write_time(dir + "/c.csv", fs::last_write_time(dir + "/c.csv") + std::chrono::seconds(5));
        s = openDataset(spec, dir, cache);
        QCOMPARE(s.trainStatistics.mean, std::vector<double>{3.0});
        QCOMPARE(loadCachedStatistics(cacheFile, "wrong key").has_value(), false);
        std::ifstream again(cacheFile);
        const std::string rewritten((std::istreambuf_iterator<char>(again)), {});
        QVERIFY(contains(rewritten, "mean 3\n"));
    }

    void openDatasetRejectsBadSpecs()
    {
        DatasetSpec spec;
        spec.format = "parquet";
        spec.path = "/tmp";
        QVERIFY(contains(expectDataError([&] { openDataset(spec, "", ""); }).what(), "unknown dataset format 'parquet'"));
        QTemporaryDir tmp;
        writeIdxDir(tmp.path().toStdString(), 10, false);
        spec.format = "idx";
        spec.path = tmp.path().toStdString();
        spec.validationFraction = 1.5;
        QVERIFY(contains(expectDataError([&] { openDataset(spec, "", ""); }).what(), "validation_fraction"));
        spec.validationFraction = 0.2;
        const DatasetSplits s = openDataset(spec, "", "");
        QCOMPARE(s.train->size(), std::int64_t(8));
        QCOMPARE(s.validation->size(), std::int64_t(2));
        QCOMPARE(s.test->size(), std::int64_t(5));
        // Named after its folder (a temporary one here, not called MNIST).
        const std::string folder = tmp.path().section('/', -1).toStdString();
        QVERIFY2(contains(s.validation->description(), folder + " validation (2 x [1, 4, 5])"), s.validation->description().c_str());
    }

    // --- Messages: bounded, and naming the real cause (issue 37) -----------------------------
    // Seen: a 10 MB CSV cell echoed whole. Generated: long values (ASCII and multi-byte) in a
    // cell, a header name and a label column name; control characters in a cell.
    void csvMessagesQuoteBoundedValues()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/long.csv";
        for (const std::size_t length : {std::size_t(81), std::size_t(1000), std::size_t(100000), std::size_t(10 << 20)})
            for (const std::string unit : {"x", "\xE5\xAD\xA6"}) {
                std::string value;  // at least 81 characters, about `length` bytes
                for (std::size_t i = 0; i < std::max<std::size_t>(81, length / unit.size()); ++i) value += unit;
                const std::string bytes = groupDigitsText(value.size()) + " bytes";
                writeText(path, "a,label\n1,0\n" + value + ",1\n");
                DataError e = expectDataError([&] { CsvDataset(path, "label", {}, ""); });
                QVERIFY2(std::string(e.what()).size() < 400, std::to_string(std::string(e.what()).size()).c_str());
                QVERIFY(contains(e.what(), ":3: column 'a' is '"));
                QVERIFY(contains(e.what(), "…' (" + bytes + "), not a (finite) number"));
                // A header name and a requested column name, as long.
                writeText(path, value + ",label\n1,0\n");
                e = expectDataError([&] { CsvDataset(path, "missing " + value, {}, ""); });
                QVERIFY2(std::string(e.what()).size() < 600, std::to_string(std::string(e.what()).size()).c_str());
                QVERIFY(contains(e.what(), "no label column '"));
                QVERIFY(contains(e.what(), "(" + bytes + ")"));  // the header's name
                QVERIFY(contains(e.what(), "(" + groupDigitsText(value.size() + 8) + " bytes)"));  // the one asked for
            }
        // Many columns: the list names the first 20 and counts the rest.
        std::string header;
        for (int c = 0; c < 5000; ++c) header += "column" + std::to_string(c) + ",";
        writeText(path, header + "label\n" + std::string(5000, '1') + "0\n");
        const DataError wide = expectDataError([&] { CsvDataset(path, "class", {}, ""); });
        QVERIFY2(std::string(wide.what()).size() < 2000, wide.what());
        QVERIFY(contains(wide.what(), "and 4981 more"));
        // Control characters in a cell are shown, not sent to the terminal.
        writeText(path, "a,label\n1,0\n\"\x1b[2J\r\nforged\",1\n");
        const DataError control = expectDataError([&] { CsvDataset(path, "label", {}, ""); });
        QVERIFY(contains(control.what(), "is '\\x1b[2J\\r\\nforged'"));
        QVERIFY(std::string(control.what()).find_first_of("\x1b\r\n") == std::string::npos);
    }

    // Seen: a folder or a FIFO where a file belongs is "not found". Generated: every reader that
    // opens a file x a folder, a FIFO, a dangling link and a missing path; never "not found" for
    // something that is there, and a FIFO never blocks (the alarm would end the test).
    void notAFileIsNamedAsWhatItIs()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        struct Kind {
            std::string name, words;
        };
        const std::vector<Kind> kinds = {{"folder", "is a folder, not a file"},
                                         {"fifo", "is a named pipe (FIFO), not a regular file"},
                                         {"link", "is a link to 'nowhere', which does not exist"},
                                         {"missing", "no such file"}};
        fs::create_directory(dir + "/folder");
        QCOMPARE(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
        fs::create_symlink("nowhere", dir + "/link");
        const std::vector<std::pair<std::string, std::function<void(const std::string&)>>> readers = {
            {"csv", [](const std::string& p) { CsvDataset(p, "label", {}, ""); }},
            {"idx images", [&](const std::string& p) { IdxDataset(p, dir + "/none", {}, "t"); }},
            {"image", [](const std::string& p) { decodeImageFile(p, 3); }},
            {"image size", [](const std::string& p) { imageFileSize(p); }},
            {"bytes", [](const std::string& p) { readFileBytes(p); }},
        };
        ::alarm(60);
        for (const auto& entry : readers)  // not a structured binding: clang cannot capture one under OpenMP
            for (const Kind& k : kinds) {
                const std::string path = dir + "/" + k.name;
                const DataError e = expectDataError([&] { entry.second(path); });
                QVERIFY2(std::string(e.what()) == path + ": " + k.words,
                         qPrintable(QString::fromStdString(entry.first + ": " + e.what())));
            }
        ::alarm(0);
        // A folder format given a file, and an IDX folder whose training images are a folder.
        writeText(dir + "/plain.txt", "x");
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = dir + "/plain.txt";
        QVERIFY(contains(expectDataError([&] { openDataset(spec, "", ""); }).what(), "plain.txt: is a file, not a folder"));
        spec.format = "image_folder";
        spec.imageShape = {1, 4, 4};
        QVERIFY(contains(expectDataError([&] { openDataset(spec, "", ""); }).what(), "plain.txt: is a file, not a folder"));
        writeIdxDir(dir + "/idx", 10, false);
        fs::remove(dir + "/idx/train-images-idx3-ubyte");
        fs::create_directory(dir + "/idx/train-images-idx3-ubyte");
        spec.format = "idx";
        spec.path = dir + "/idx";
        const DataError e = expectDataError([&] { openDataset(spec, "", ""); });
        QVERIFY(contains(e.what(), "train-images-idx3-ubyte: is a folder, not a file"));
        QVERIFY(std::string(e.what()).find("not found") == std::string::npos);
    }

    // Seen: a gzip error's byte offset was in the decompressed stream. It is the byte of the
    // compressed file now, and the message says so. Generated: damage at many places.
    void gzipErrorsNameTheCompressedByte()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeIdxDir(dir, 2000, true);
        const std::string images = dir + "/train-images-idx3-ubyte.gz";
        Bytes gz;
        {
            std::ifstream in(images, std::ios::binary);
            gz.assign(std::istreambuf_iterator<char>(in), {});
        }
        const auto size = static_cast<std::int64_t>(gz.size());
        // Cut short: the error is at the end of the compressed file.
        writeFile(images, Bytes(gz.begin(), gz.begin() + size / 2));
        DataError e = expectDataError([&] { readFileBytes(images); });
        QCOMPARE(e.position(), size / 2);
        QVERIFY(contains(e.what(), images + ": byte " + std::to_string(size / 2) + ": corrupt gzip stream (the file ends inside"));
        QVERIFY(contains(e.what(), "the byte is in the compressed file, after "));
        int errors = 0;
        for (std::int64_t at = 12; at < size - 8; at += 7) {
            Bytes damaged = gz;
            damaged[std::size_t(at)] ^= 0x55;
            writeFile(images, damaged);
            e = expectDataError([&] { readFileBytes(images); });
            if (e.position() == -2) continue;  // a flip that still inflates (then the CRC says so below)
            ++errors;
            // Never past the compressed file, never before the damage (inflate stops after it).
            QVERIFY2(e.position() >= at && e.position() <= size, qPrintable(QString("damage at %1: %2").arg(at).arg(e.what())));
            QVERIFY(contains(e.what(), "in the compressed file"));
        }
        QVERIFY2(errors > (size - 20) / 7 * 9 / 10, qPrintable(QString::number(errors)));
    }

    // Seen: a CMYK JPEG was "damaged". It is named as a CMYK image TrainStudio does not decode.
    void cmykJpegIsNamed()
    {
        QTemporaryDir tmp;
        for (const J_COLOR_SPACE space : {JCS_CMYK, JCS_YCCK}) {
            const std::string path = tmp.path().toStdString() + "/print" + std::to_string(int(space)) + ".jpg";
            writeCmykJpeg(path, space);
            for (const int channels : {1, 3}) {
                const DataError e = expectDataError([&] { decodeImageFile(path, channels); });
                QVERIFY(contains(e.what(), path + ": a CMYK JPEG image"));
                QVERIFY(contains(e.what(), "save it as RGB"));
                QVERIFY2(std::string(e.what()).find("damaged") == std::string::npos, e.what());
            }
            const ImageSize size = imageFileSize(path);  // its header is fine
            QCOMPARE(size.width, 4);
        }
    }

    // --- The real Fashion-MNIST ------------------------------------------------------------
    void realFashionMnist()
    {
        const std::string dir = "/usr/share/datasets/fashion-mnist";
        if (!fs::exists(dir + "/train-images-idx3-ubyte.gz") && !fs::exists(dir + "/train-images-idx3-ubyte"))
            QSKIP("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)");
        QTemporaryDir tmp;
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = dir;
        spec.validationFraction = 0;  // the statistics of all 60000 training images
        QElapsedTimer timer;
        timer.start();
        DatasetSplits s = openDataset(spec, "", tmp.path().toStdString());
        const qint64 firstMs = timer.restart();
        DatasetSplits cached = openDataset(spec, "", tmp.path().toStdString());
        const qint64 cachedMs = timer.elapsed();
        qInfo("Fashion-MNIST: first open %lld ms, cached %lld ms; mean %.6f std %.6f", firstMs, cachedMs,
              s.trainStatistics.mean[0], s.trainStatistics.stddev[0]);
        QCOMPARE(s.train->size(), std::int64_t(60000));
        QCOMPARE(s.test->size(), std::int64_t(10000));
        QCOMPARE(s.train->sampleShape(), (Shape{1, 28, 28}));
        QCOMPARE(s.train->classNames()[9], std::string("Ankle boot"));
        for (auto l : s.train->labels())
            QVERIFY(l >= 0 && l < 10);
        for (auto c : s.trainStatistics.classCounts)
            QCOMPARE(c, std::int64_t(6000));
        QVERIFY(std::abs(s.trainStatistics.mean[0] - 0.2860) < 0.0005);
        QVERIFY(std::abs(s.trainStatistics.stddev[0] - 0.3530) < 0.0005);
        spec.validationFraction = 0.1;  // the default: statistics of the 54000 left for training
        const DatasetSplits split = openDataset(spec, "", "");
        qInfo("with a 0.1 validation split: mean %.6f std %.6f", split.trainStatistics.mean[0], split.trainStatistics.stddev[0]);
        QCOMPARE(split.train->size() + split.validation->size(), std::int64_t(60000));
        QCOMPARE(cached.trainStatistics.mean, s.trainStatistics.mean);
        QCOMPARE(cached.trainStatistics.stddev, s.trainStatistics.stddev);
    }
};

QTEST_GUILESS_MAIN(TestDataReaders)
#include "tst_data_readers.moc"

// Checkpoint files: SHA-256 against the FIPS vectors; safetensors byte for byte as the format
// is specified, round trips of every dtype, every kind of damage refused with the file named;
// atomic writes that leave the old file alone on failure (a missing folder, a full disk);
// the training state bit for bit; weights in and out of a real executor; the keep policy.
#include <QtTest>

#include <csignal>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "exec/executor.h"
#include "io/checkpoint/checkpoint.h"
#include "io/checkpoint/sha256.h"
#include "train/checkpoint_policy.h"

using namespace ts;

namespace {

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The message of the CheckpointError `f` throws; anything else fails the test.
std::string errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const CheckpointError& e) {
        return e.what();
    }
    throw std::runtime_error("no CheckpointError was thrown");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Tensor randomTensor(const Shape& shape, DType dtype, std::mt19937_64& rng)
{
    Tensor t = Tensor::empty(shape, dtype);
    auto* p = static_cast<unsigned char*>(t.raw());
    for (std::size_t i = 0; i < t.bytes(); ++i) p[i] = static_cast<unsigned char>(rng());
    return t;
}

bool sameTensor(const Tensor& a, const Tensor& b)
{
    return a.dtype() == b.dtype() && a.shape() == b.shape() && (a.bytes() == 0 || std::memcmp(a.raw(), b.raw(), a.bytes()) == 0);
}

// A small model with both kinds of parameter: trainable weights and batch-norm buffers.
Graph smallModel(std::int64_t hidden = 8)
{
    Graph g;
    g.inputs = {{"x", Shape{6}}, {"label", Shape{}, DType::I64}};
    g.add("fc1", "Linear", {"x"}, {{"out_features", hidden}});
    g.add("bn", "BatchNorm1d", {"fc1"});
    g.add("relu", "ReLU", {"bn"});
    g.add("fc2", "Linear", {"relu"}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    return g;
}

TrainingState fullState()
{
    std::mt19937_64 rng(5);
    TrainingState s;
    s.epoch = 7, s.batchInEpoch = 13, s.step = 1234567, s.microStep = 9876543210123ull;
    s.seed = std::numeric_limits<std::uint64_t>::max();
    Tensor step = Tensor::empty(Shape{1}, DType::I64);
    step.data<std::int64_t>()[0] = 1234567;
    s.optimizerState = {{"step", step}, {"exp_avg", randomTensor(Shape{41}, DType::F32, rng)},
                        {"exp_avg_sq", randomTensor(Shape{41}, DType::F32, rng)}};
    s.plateau = PlateauState{0.1 * 0.3, std::nextafter(0.9, 1.0), true, 2};
    s.earlyHasBest = true, s.earlyBest = 0.1 + 0.2, s.earlyBestEpoch = 3, s.earlyBad = 1, s.earlyUpdates = 6;
    s.lossScale = 65536.0, s.scalerGoodSteps = 1999;
    s.bestMetricName = "val_acc", s.bestMetricValue = 0.9234567890123456, s.bestEpoch = 5;
    s.lastEpochMetrics = {{"train_loss", std::numeric_limits<double>::quiet_NaN()},
                          {"val_loss", std::numeric_limits<double>::infinity()},
                          {"grad_norm", -std::numeric_limits<double>::infinity()},
                          {"tiny", std::numeric_limits<double>::denorm_min()},
                          {"third", 1.0 / 3.0},
                          {"minus_zero", -0.0},
                          {"huge", std::numeric_limits<double>::max()},
                          {"val acc \"odd\" name", 0.5}};
    // A mid-epoch checkpoint's running sums (two classes: the binary scores too).
    MetricSums sums;
    sums.count = 48, sums.lossSum = 1.0 / 3.0 * 48, sums.lossCount = 48;
    sums.topKCorrect = {40};
    sums.confusion = {20, 4, 4, 20};
    sums.binaryScores = {0.1, -2.5, std::nextafter(1.0, 2.0), -0.0};
    sums.binaryPositive = {1, 0, 1, 0};
    sums.seconds = 0.1 + 0.2, sums.waitSeconds = 1e-9;
    s.epochSums = sums;
    s.experimentYaml = "name: \"t\"\ndescription: |\n  ünïcödé, 中文, a \\ backslash\n\ttab\ntraining: {epochs: 3}\n";
    return s;
}

}  // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT

private slots:
    void sha256Vectors()
    {
        // FIPS 180-4 / NIST CSRC examples.
        QCOMPARE(sha256Hex("", 0), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(sha256Hex("abc", 3), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        const std::string m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        QCOMPARE(sha256Hex(m448.data(), m448.size()), std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        const std::string m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
        QCOMPARE(sha256Hex(m896.data(), m896.size()), std::string("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"));
        // One million 'a', whole and streamed in uneven pieces (partial blocks on both sides).
        const std::string million(1000000, 'a');
        const std::string expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
        QCOMPARE(sha256Hex(million.data(), million.size()), expected);
        Sha256 h;
        for (std::size_t at = 0, piece = 1; at < million.size(); at += piece, piece = piece * 7 % 131 + 1)
            h.update(million.data() + at, std::min(piece, million.size() - at));
        QCOMPARE(h.finishHex(), expected);
        // Lengths around the padding boundary (55, 56, 64 bytes) agree streamed and whole.
        for (std::size_t n : {55, 56, 63, 64, 65, 119, 120}) {
            const std::string m(n, 'x');
            Sha256 s;
            for (char c : m) s.update(&c, 1);
            QCOMPARE(s.finishHex(), sha256Hex(m.data(), m.size()));
        }
        QTemporaryDir dir;
        const std::string path = dir.filePath("m").toStdString();
        writeAll(path, million);
        QCOMPARE(sha256File(path), expected);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, sha256File(dir.filePath("missing").toStdString()));
    }

    void roundTripEveryDtype()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("all.safetensors").toStdString();
        std::mt19937_64 rng(1);
        NamedTensors in = {{"f32", randomTensor(Shape{3, 5}, DType::F32, rng)}, {"f16", randomTensor(Shape{7}, DType::F16, rng)},
                           {"bf16", randomTensor(Shape{2, 1, 3}, DType::BF16, rng)}, {"i32", randomTensor(Shape{4}, DType::I32, rng)},
                           {"i64", randomTensor(Shape{}, DType::I64, rng)},           {"u8", randomTensor(Shape{9}, DType::U8, rng)},
                           {"empty", Tensor::empty(Shape{0, 4}, DType::F32)},          {"名前 \"quoted\"", randomTensor(Shape{1}, DType::U8, rng)}};
        const std::map<std::string, std::string> meta = {{"plain", "value"}, {"tricky", "a \"quote\", a \\ and\nnew line\t\x01\b\f\x7f 中文"}, {"empty", ""}};
        std::string writtenHash, readHash;
        const std::size_t bytes = writeSafetensors(path, in, meta, &writtenHash);
        QCOMPARE(bytes, std::size_t(std::filesystem::file_size(path)));
        QCOMPARE(bytes % 8, std::size_t((15 * 4 + 7 * 2 + 6 * 2 + 4 * 4 + 8 + 9 + 1) % 8));  // header is padded to 8
        const SafetensorsFile out = readSafetensors(path, &readHash);
        QCOMPARE(writtenHash, readHash);
        QCOMPARE(readHash, sha256File(path));
        QCOMPARE(out.tensors.size(), in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            QCOMPARE(out.tensors[i].first, in[i].first);  // file order is the written order
            QVERIFY2(sameTensor(out.tensors[i].second, in[i].second), in[i].first.c_str());
        }
        for (const auto& [k, v] : meta) QCOMPARE(out.metadata.at(k), v);
        QCOMPARE(out.metadata.size(), meta.size() + 2);  // + ts_data_sha256, ts_header_sha256
        QCOMPARE(out.metadata.at("ts_data_sha256").size(), std::size_t(64));
        QCOMPARE(out.metadata.at("ts_header_sha256").size(), std::size_t(64));
        // Nothing but the file itself is left in the folder.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"all.safetensors"});
        // The writer refuses what it cannot store faithfully.
        QVERIFY(contains(errorOf([&] { writeSafetensors(path, {{"a", in[0].second}, {"a", in[1].second}}, {}); }), "two tensors are named 'a'"));
        QVERIFY(contains(errorOf([&] { writeSafetensors(path, {{"__metadata__", in[0].second}}, {}); }), "__metadata__"));
        QVERIFY(contains(errorOf([&] { writeSafetensors(path, {{"bad\xff", in[0].second}}, {}); }), "not valid UTF-8"));
        QVERIFY(sameTensor(readSafetensors(path).tensors[0].second, in[0].second));  // and the file is as it was
    }

    void byteExactFile()
    {
        // The expected bytes are spelled out by hand from the format description; the two
        // hashes were computed with Python's hashlib, independently of our SHA-256.
        const std::string header =
            "{\"__metadata__\":{\"note\":\"h\xc3\xa9" "llo \\\"q\\\"\\n\","
            R"("ts_data_sha256":"416ff50824152f936c76d8f8d55a220e3b3af155ca09cf3064bab340888128a8",)"
            R"("ts_header_sha256":"4067225270a5cb85a3e9a2b520e1551a8ffb097310d1e891ec6455c66bd267e7"},)"
            R"("w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
            R"("n":{"dtype":"I64","shape":[],"data_offsets":[8,16]},)"
            R"("e":{"dtype":"U8","shape":[0],"data_offsets":[16,16]}})"
            "    ";  // four spaces: 376 bytes, a multiple of 8
        QCOMPARE(header.size(), std::size_t(376));
        const std::string length("\x78\x01\0\0\0\0\0\0", 8);  // 376, little-endian
        const std::string data("\x00\x00\x80\x3f"   // 1.0f
                               "\x00\x00\x20\xc0"   // -2.5f
                               "\x07\0\0\0\0\0\0\0",  // int64 7
                               16);
        const std::string expected = length + header + data;

        QTemporaryDir dir;
        const std::string path = dir.filePath("exact.safetensors").toStdString();
        Tensor w = Tensor::empty(Shape{2});
        w.data<float>()[0] = 1.0f, w.data<float>()[1] = -2.5f;
        Tensor n = Tensor::empty(Shape{}, DType::I64);
        n.data<std::int64_t>()[0] = 7;
        std::string fileHash;
        writeSafetensors(path, {{"w", w}, {"n", n}, {"e", Tensor::empty(Shape{0}, DType::U8)}}, {{"note", "h\xc3\xa9llo \"q\"\n"}}, &fileHash);
        const std::string got = readAll(path);
        QCOMPARE(got.size(), expected.size());
        QVERIFY2(got == expected, got.substr(8, 376).c_str());
        QCOMPARE(fileHash, std::string("ca0ce2026e528aa1a432d340b0ce4f4fbed72b8a2bf51f72f9912aca4c023c8c"));

        // A file as another writer might lay it out: no TrainStudio metadata, whitespace in the
        // JSON, escapes, header order unlike data order. It reads, in data order.
        const std::string foreignHeader =
            R"({ "__metadata__" : { "format" : "pt", "who" : "caf\u00e9 \/ \ud83d\ude00" },)"
            R"( "a" : { "dtype" : "F32", "shape" : [ 1, 2 ], "data_offsets" : [ 4, 12 ] },)"
            "\n"
            R"( "b" : {"shape":[2],"dtype":"BF16","data_offsets":[0,4]}})";
        std::string foreign = foreignHeader + std::string((8 - foreignHeader.size() % 8) % 8, ' ');
        std::string bytes(8, '\0');
        for (int i = 0; i < 8; ++i) bytes[i] = char((foreign.size() >> (8 * i)) & 0xff);
        bytes += foreign + std::string("\x80\x3f\x00\x40", 4) + data.substr(0, 8);  // bf16 1.0, 2.0; f32 1.0, -2.5
        const std::string foreignPath = dir.filePath("foreign.safetensors").toStdString();
        writeAll(foreignPath, bytes);
        const SafetensorsFile f = readSafetensors(foreignPath);
        QCOMPARE(f.tensors.size(), std::size_t(2));
        QCOMPARE(f.tensors[0].first, std::string("b"));
        QCOMPARE(f.tensors[0].second.dtype(), DType::BF16);
        QCOMPARE(f.tensors[1].first, std::string("a"));
        QCOMPARE(f.tensors[1].second.shape(), (Shape{1, 2}));
        QCOMPARE(f.tensors[1].second.data<float>()[1], -2.5f);
        QCOMPARE(f.metadata.at("who"), std::string("caf\xc3\xa9 / \xf0\x9f\x98\x80"));
    }

    void oldEscapesStillVerify()
    {
        // The hand-written writer before nlohmann escaped \b and \f as \u0008 and \u000c;
        // nlohmann writes \b and \f. Files of either kind verify: the header hash covers the
        // bytes as they are in the file. The old bytes are spelled out as in byteExactFile (the
        // hashes from Python's hashlib and a replica of the old writer).
        const std::string header =
            "{\"__metadata__\":{\"note\":\"bell\\u0008 feed\\u000c ctl\\u0001 \\\"q\\\" \xc3\xa9\","  // no raw string: moc misreads \" in one
            R"("ts_data_sha256":"48943f7a0ea247f8e3c9386d0c5822fe181d323a9289980426638cc4e72a43e1",)"
            R"("ts_header_sha256":"107d0aaa3a4f94b845b12652066b1f989d82f127887203b707b0a9f9471326d9"},)"
            R"("w\u0008\u000c":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})"
            " ";  // one space: 304 bytes
        QCOMPARE(header.size(), std::size_t(304));
        const std::string data("\x00\x00\x80\x3f\x00\x00\x20\xc0", 8);  // 1.0f, -2.5f
        QTemporaryDir dir;
        const std::string oldPath = dir.filePath("old.safetensors").toStdString();
        writeAll(oldPath, std::string("\x30\x01\0\0\0\0\0\0", 8) + header + data);
        const std::string note = "bell\b feed\f ctl\x01 \"q\" \xc3\xa9", name = "w\b\f";
        const SafetensorsFile old = readSafetensors(oldPath);
        QCOMPARE(old.metadata.at("note"), note);
        QCOMPARE(old.tensors.at(0).first, name);
        QCOMPARE(old.tensors.at(0).second.data<float>()[1], -2.5f);

        const std::string newPath = dir.filePath("new.safetensors").toStdString();
        writeSafetensors(newPath, old.tensors, {{"note", note}});
        const std::string written = readAll(newPath);
        QVERIFY2(contains(written, "{\"__metadata__\":{\"note\":\"bell\\b feed\\f ctl\\u0001 \\\"q\\\" "), written.c_str());
        QCOMPARE(readSafetensors(newPath).metadata.at("note"), note);

        std::string damaged = readAll(oldPath);  // the hash was checked, not skipped
        damaged[damaged.find("bell")] ^= 0x01;
        writeAll(oldPath, damaged);
        QVERIFY(contains(errorOf([&] { readSafetensors(oldPath); }), oldPath + ": header checksum mismatch"));
    }

    void damagedFilesAreRefused()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("d.safetensors").toStdString();
        std::mt19937_64 rng(2);
        writeSafetensors(path, {{"a", randomTensor(Shape{64}, DType::F32, rng)}, {"b", randomTensor(Shape{3}, DType::I64, rng)}},
                         {{"note", "some text"}});
        const std::string good = readAll(path);
        const std::size_t headerBytes = std::size_t(std::uint8_t(good[0])) | std::size_t(std::uint8_t(good[1])) << 8;
        auto refuse = [&](const std::string& bytes) {
            writeAll(path, bytes);
            const std::string e = errorOf([&] { readSafetensors(path); });
            if (!contains(e, path + ": ")) throw std::runtime_error("the message does not name the file: " + e);
            return e;
        };
        std::string e = refuse(good.substr(0, good.size() - 3));
        QVERIFY2(contains(e, "truncated: " + std::to_string(good.size() - 3) + " bytes, the header says " + std::to_string(good.size())), e.c_str());
        e = refuse(good.substr(0, 5));
        QVERIFY2(contains(e, "truncated: 5 bytes"), e.c_str());
        std::string bad = good;
        bad[8 + headerBytes + 100] ^= 0x10;  // a bit in tensor a
        e = refuse(bad);
        QVERIFY2(contains(e, "checksum mismatch in the tensor data"), e.c_str());
        bad = good;
        bad[good.find("some text")] ^= 0x01;  // a bit in a metadata value
        e = refuse(bad);
        QVERIFY2(contains(e, "header checksum mismatch"), e.c_str());
        bad = good;
        const std::size_t comma = good.find("},\"a\"");  // garbage in place of a comma
        bad[comma + 1] = '#';
        e = refuse(bad);
        QVERIFY2(contains(e, "header: syntax error while parsing object - invalid literal; expected '}' at byte " + std::to_string(comma + 1)), e.c_str());
        bad = good;
        bad[8] = '[';
        QVERIFY(contains(refuse(bad), "header: "));
        bad = good;
        bad[6] = 1;  // the header length far beyond the file
        e = refuse(bad);
        QVERIFY2(contains(e, "truncated: " + std::to_string(good.size()) + " bytes, the header length says"), e.c_str());
        e = refuse(good + "xyz");
        QVERIFY2(contains(e, "3 bytes after the last tensor belong to no tensor"), e.c_str());
        QVERIFY(contains(refuse(""), "truncated: 0 bytes"));
        QVERIFY(contains(errorOf([&] { readSafetensors(dir.filePath("none.safetensors").toStdString()); }), "cannot open: No such file"));
    }

    void headerValidation()
    {
        // Hand-written headers, each wrong in one way; the message says how.
        QTemporaryDir dir;
        const std::string path = dir.filePath("h.safetensors").toStdString();
        auto refuse = [&](std::string header, std::size_t dataBytes) {
            header.append((8 - header.size() % 8) % 8, ' ');
            std::string bytes(8, '\0');
            for (int i = 0; i < 8; ++i) bytes[i] = char((header.size() >> (8 * i)) & 0xff);
            writeAll(path, bytes + header + std::string(dataBytes, '\0'));
            return errorOf([&] { readSafetensors(path); });
        };
        auto expect = [&](const std::string& header, std::size_t dataBytes, const std::string& part) {
            const std::string e = refuse(header, dataBytes);
            if (!contains(e, part) || !contains(e, path)) throw std::runtime_error("expected '" + part + "' in: " + e);
        };
        expect(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", 12,
               "tensors 'a' [0, 8] and 'b' [4, 12] overlap");
        expect(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4, "truncated: ");
        expect(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8, "tensor 'a': F32 [3] is 12 bytes, its data_offsets [0, 8] hold 8");
        expect(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", 12, "bytes 0 to 4 of the data belong to no tensor");
        expect(R"({"a":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}})", 8, "dtype 'F64' is not supported");
        expect(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4, "shape: expected a whole number >= 0, got -1");
        expect(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", 8, "end before they begin");
        expect(R"({"a":{"dtype":"F32","shape":[1]}})", 4, "tensor 'a': no \"data_offsets\"");
        expect(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})", 4, "is too large");
        expect(R"({"a":{"dtype":"F32","shape":[99999999999999999999],"data_offsets":[0,4]}})", 4, "tensor 'a': shape: 1e+20 is too large");
        expect(R"({"a":{"dtype":"F32","shape":[1e0],"data_offsets":[0,4]}})", 4, "shape: expected a whole number >= 0, got 1.0");
        expect(R"({"a":{"dtype":"F32","shape":[-0],"data_offsets":[0,4]}})", 4, "shape: expected a whole number >= 0, got -0");
        expect(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,"4"]}})", 4, "data_offsets: expected a whole number >= 0, got a string");
        expect(R"({"a":{"dtype":"F32","shape":{},"data_offsets":[0,4]}})", 4, "tensor 'a': shape: expected a list, got an object");
        expect(R"({"a":[]})", 0, "tensor 'a': expected an object, got a list");
        expect(R"([])", 0, "header: expected an object, got a list");
        expect(R"({"__metadata__":{"n":1}})", 0, "header: __metadata__: 'n': expected a string, got a number");
        expect(R"({"a":1,"a":2})", 0, "header: duplicate key \"a\"");
        expect(R"({"a":{"dtype":"F32","shape":[1],"dtype":"F32","data_offsets":[0,4]}})", 4, "header: duplicate key \"dtype\" in \"a\"");
        expect(R"({"__metadata__":{"k":"1","k":"2"}})", 0, "header: duplicate key \"k\" in \"__metadata__\"");
        expect(R"({"a":{"x":[{"k":1,"k":2}]}})", 0, "header: duplicate key \"k\" in \"x\"");
        expect("{\"a\":\"x", 0, "invalid string: missing closing quote at byte ");
        expect("{\"a\":1#}", 0, "syntax error while parsing object - invalid literal; expected '}' at byte 14");  // from the file's start
        expect(std::string(200, '[') + std::string(200, ']'), 0, "nested too deeply");
        expect("{}  x", 0, "expected end of input at byte 12");
        expect(std::string("{}  \0 x", 7), 0, "a zero byte, which JSON does not allow, at byte 12");
        expect(std::string("{\"a\":\"\0\"}", 9), 0, "a zero byte, which JSON does not allow, at byte 14");
        expect("\n", 0, "unexpected end of input; expected '[', '{', or a literal at byte ");
        // Invalid UTF-8 is refused, and the message leaves the file's bytes out: it stays UTF-8.
        const std::string e = refuse("{\"a\":\"\xff\"}", 0);
        QVERIFY2(contains(e, "header: syntax error while parsing value - invalid string: ill-formed UTF-8 byte at byte 14"), e.c_str());
        QVERIFY2(e.find('\xff') == std::string::npos, e.c_str());
    }

    // Seen: a link to a file that is no checkpoint read as "truncated ... 3,475,222,254,926,655,346
    // bytes of header". Any file whose bytes after the length are no JSON header is named as not
    // a safetensors file (with its first bytes, and a link's target). Generated: common file
    // kinds and random bytes of many sizes.
    void nonCheckpointFilesAreNamed()
    {
        QTemporaryDir dir;
        const std::string text = dir.filePath("notes.txt").toStdString();
        writeAll(text, "These are my notes about the experiment, not weights.\n");
        const std::string link = dir.filePath("best.safetensors").toStdString();
        std::filesystem::create_symlink(text, link);
        std::string e = errorOf([&] { readSafetensors(link); });
        QVERIFY2(contains(e, link + ": not a safetensors file"), e.c_str());
        QVERIFY2(contains(e, "this one starts 'These are')"), e.c_str());
        QVERIFY2(contains(e, "the path is a link to '" + text + "'"), e.c_str());
        QVERIFY2(!contains(e, "truncated") && !contains(e, "3,475,222,254,926,655,346"), e.c_str());
        QVERIFY(contains(errorOf([&] { loadCheckpoint(link); }), "not a safetensors file"));

        const std::string path = dir.filePath("other.safetensors").toStdString();
        const std::vector<std::string> kinds = {
            std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16),      // an image
            std::string("PK\x03\x04\x14\0\0\0\x08\0", 10) + std::string(100, 'z'),  // a zip
            std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0", 12) + std::string(100, '\0'),  // a program
            std::string("\x08\x07\x12\x07pytorch\x1a\x05", 14) + std::string(64, 'q'),  // an ONNX model
            "name: mlp\nmodel:\n  layers: []\n",                     // an experiment file
            std::string(64, '\0'),                                   // zeros: length 0, then no '{'
        };
        for (const std::string& bytes : kinds) {
            writeAll(path, bytes);
            e = errorOf([&] { readSafetensors(path); });
            QVERIFY2(contains(e, path + ": not a safetensors file"), e.c_str());
            QVERIFY2(!contains(e, "truncated"), e.c_str());
            QVERIFY2(e.find('\x1a') == std::string::npos && e.find('\n') == std::string::npos, e.c_str());  // shown escaped
        }
        std::mt19937_64 rng(37);
        int named = 0;
        for (int round = 0; round < 300; ++round) {
            std::string bytes(9 + rng() % 3000, '\0');
            for (auto& c : bytes) c = char(rng());
            if (bytes[8] == '{' || bytes[8] == '[' || std::isspace(static_cast<unsigned char>(bytes[8]))) bytes[8] = 'x';
            writeAll(path, bytes);
            e = errorOf([&] { readSafetensors(path); });
            named += contains(e, ": not a safetensors file (");
            QVERIFY2(e.size() < 600, e.c_str());
        }
        QCOMPARE(named, 300);
        // A folder and a FIFO are named as such; the FIFO is not opened (it would block).
        QVERIFY(contains(errorOf([&] { readSafetensors(dir.path().toStdString()); }), ": is a folder, not a file"));
        const std::string fifo = dir.filePath("fifo.safetensors").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        ::alarm(30);
        QVERIFY(contains(errorOf([&] { readSafetensors(fifo); }), fifo + ": is a named pipe (FIFO), not a regular file"));
        ::alarm(0);
    }

    void everyBitFlipIsRefused()
    {
        // Both checksums together catch any single flipped bit, anywhere in either file.
        QTemporaryDir dir;
        const std::string path = dir.filePath("flip.safetensors").toStdString();
        std::mt19937_64 rng(3);
        TrainingState s;
        s.optimizerState = {{"step", Tensor::zeros(Shape{1}, DType::I64)}};
        s.lastEpochMetrics = {{"val_acc", 0.5}};
        s.experimentYaml = "name: t\n";
        saveCheckpoint(path, {{"w", randomTensor(Shape{5}, DType::F32, rng)}}, s);
        for (const std::string& file : {path, checkpointStatePath(path)}) {
            const std::string good = readAll(file);
            // Every bit of the header length, and one bit of every other byte (rotating
            // through the eight; all of them make the test I/O-bound for no more coverage).
            int refused = 0, total = 0;
            for (std::size_t at = 0; at < good.size(); ++at)
                for (int bit = at < 8 ? 0 : int(at % 8); bit < (at < 8 ? 8 : int(at % 8) + 1); ++bit, ++total) {
                    std::string bad = good;
                    bad[at] = char(bad[at] ^ (1 << bit));
                    writeAll(file, bad);
                    try {
                        loadCheckpoint(path);
                    } catch (const CheckpointError& e) {
                        refused += contains(e.what(), file + ": ");
                    }
                }
            writeAll(file, good);
            QCOMPARE(refused, total);
        }
        QVERIFY(loadCheckpoint(path).state == s);
    }

    void failedWriteKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("keep.safetensors").toStdString();
        std::mt19937_64 rng(4);
        const NamedTensors old = {{"w", randomTensor(Shape{16}, DType::F32, rng)}};
        writeSafetensors(path, old, {});
        const std::string before = readAll(path);
        const NamedTensors fresh = {{"w", randomTensor(Shape{16 * 1024}, DType::F32, rng)}};

        // A folder that cannot exist (a path under a regular file fails even for root).
        const std::string underFile = path + "/x.safetensors";
        std::string e = errorOf([&] { writeSafetensors(underFile, fresh, {}); });
        QVERIFY2(contains(e, "cannot write " + underFile + ": Not a directory"), e.c_str());
        e = errorOf([&] { writeSafetensors(dir.filePath("missing/x.safetensors").toStdString(), fresh, {}); });
        QVERIFY2(contains(e, ": No such file or directory"), e.c_str());

        // The temporary file cannot be created (a directory is in the way): the target stays.
        QVERIFY(QDir(dir.path()).mkdir("keep.safetensors.tmp"));
        e = errorOf([&] { writeSafetensors(path, fresh, {}); });
        QVERIFY2(contains(e, "cannot write " + path + ": Is a directory"), e.c_str());
        QVERIFY(readAll(path) == before);
        QVERIFY(QDir(dir.path()).rmdir("keep.safetensors.tmp"));

        // A full disk, simulated without root: a file size limit makes write() fail part way
        // (EFBIG instead of ENOSPC, but through the same path: a short write, then an error).
        std::signal(SIGXFSZ, SIG_IGN);  // otherwise the kernel's signal ends the process
        rlimit saved{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
        rlimit small = saved;
        small.rlim_cur = 4096;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        e = errorOf([&] { writeSafetensors(path, fresh, {}); });
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &saved), 0);
        QVERIFY2(contains(e, "cannot write " + path + ": File too large"), e.c_str());
        QVERIFY(readAll(path) == before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"keep.safetensors"});

        // A checkpoint whose state file cannot be written leaves no weights behind either,
        // and the checkpoint saved before it loads as it was.
        const std::string first = dir.filePath("epoch_001.safetensors").toStdString();
        TrainingState s = fullState();
        saveCheckpoint(first, old, s);
        const std::string second = dir.filePath("epoch_002.safetensors").toStdString();
        QVERIFY(QDir(dir.path()).mkdir("epoch_002.state.safetensors.tmp"));
        e = errorOf([&] { saveCheckpoint(second, fresh, s); });
        QVERIFY2(contains(e, "cannot write " + checkpointStatePath(second)), e.c_str());
        QVERIFY(!std::filesystem::exists(second));
        QVERIFY(loadCheckpoint(first).state == s);
    }

    void trainingStateRoundTrip()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("epoch_007.safetensors").toStdString();
        QCOMPARE(checkpointStatePath(path), dir.filePath("epoch_007.state.safetensors").toStdString());
        QCOMPARE(checkpointStatePath("/x/weights"), std::string("/x/weights.state.safetensors"));
        std::mt19937_64 rng(6);
        const NamedTensors weights = {{"fc.weight", randomTensor(Shape{3, 4}, DType::F32, rng)}, {"fc.bias", randomTensor(Shape{3}, DType::F32, rng)}};
        const TrainingState s = fullState();
        const SavedCheckpoint saved = saveCheckpoint(path, weights, s);
        QCOMPARE(saved.weightsPath, path);
        QCOMPARE(saved.statePath, checkpointStatePath(path));
        QCOMPARE(saved.sha256, sha256File(path));
        QCOMPARE(saved.stateSha256, sha256File(saved.statePath));
        QCOMPARE(saved.sizeBytes, std::int64_t(std::filesystem::file_size(path) + std::filesystem::file_size(saved.statePath)));

        const Checkpoint c = loadCheckpoint(path, saved.sha256);
        QVERIFY(c.state == s);
        QCOMPARE(c.weights.size(), weights.size());
        for (std::size_t i = 0; i < weights.size(); ++i) QVERIFY(c.weights[i].first == weights[i].first && sameTensor(c.weights[i].second, weights[i].second));
        QVERIFY(std::isnan(c.state.lastEpochMetrics.at("train_loss")));
        QVERIFY(std::signbit(c.state.lastEpochMetrics.at("minus_zero")));
        // The weights file says what it is, for people and other tools.
        const SafetensorsFile w = readSafetensors(path);
        QCOMPARE(w.metadata.at("ts_format"), std::string("trainstudio-weights/1"));
        QCOMPARE(w.metadata.at("ts_step"), std::string("1234567"));
        QCOMPARE(w.metadata.at("ts_epoch"), std::string("7"));
        QCOMPARE(readSafetensors(saved.statePath).metadata.at("ts_format"), std::string("trainstudio-state/1"));

        // The defaults (no plateau, no best) survive as well.
        TrainingState plain;
        saveCheckpoint(path, weights, plain);
        QVERIFY(loadCheckpoint(path).state == plain);

        // operator== is exact, and not trivially true.
        TrainingState t = s;
        QVERIFY(t == s);
        t.lastEpochMetrics["third"] = std::nextafter(1.0 / 3.0, 1.0);
        QVERIFY(!(t == s));
        t = s, t.lastEpochMetrics["minus_zero"] = 0.0;
        QVERIFY(!(t == s));
        t = s, t.plateau->badEpochs = 3;
        QVERIFY(!(t == s));
        t = s, t.plateau.reset();
        QVERIFY(!(t == s));
        t = s, t.epochSums->confusion[1] = 5;
        QVERIFY(!(t == s));
        t = s, t.epochSums->binaryScores[2] = 1.0;
        QVERIFY(!(t == s));
        t = s, t.epochSums.reset();
        QVERIFY(!(t == s));
        t = s, t.optimizerState[1].second = t.optimizerState[1].second.clone(), static_cast<unsigned char*>(t.optimizerState[1].second.raw())[0] ^= 1;
        QVERIFY(!(t == s));
        t = s, t.bestMetricValue.reset();
        QVERIFY(!(t == s));
    }

    void loadRefusesMismatchedFiles()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("c.safetensors").toStdString();
        const std::string state = checkpointStatePath(path);
        std::mt19937_64 rng(7);
        const NamedTensors weights = {{"w", randomTensor(Shape{4}, DType::F32, rng)}};
        TrainingState s = fullState();
        const SavedCheckpoint first = saveCheckpoint(path, weights, s);

        std::string e = errorOf([&] { loadCheckpoint(path, std::string(64, 'a')); });
        QVERIFY2(contains(e, path + ": checksum mismatch: the workspace recorded SHA-256 " + std::string(64, 'a')), e.c_str());

        // A state file from another save beside these weights (a save interrupted between renames).
        const std::string oldState = readAll(state);
        s.step += 1;
        saveCheckpoint(path, weights, s);
        writeAll(state, oldState);
        e = errorOf([&] { loadCheckpoint(path); });
        QVERIFY2(contains(e, state + ": belongs to another save than " + path), e.c_str());

        // An unknown format version, and a file without one.
        SafetensorsFile f = readSafetensors(state);
        f.metadata["ts_format"] = "trainstudio-state/2";
        f.metadata["ts_weights_sha256"] = sha256File(path);
        writeSafetensors(state, f.tensors, f.metadata);
        e = errorOf([&] { loadCheckpoint(path); });
        QVERIFY2(contains(e, state + ": unknown format 'trainstudio-state/2' (this version of TrainStudio reads trainstudio-state/1)"), e.c_str());
        writeSafetensors(path, weights, {});
        e = errorOf([&] { loadCheckpoint(path); });
        QVERIFY2(contains(e, path + ": not a TrainStudio checkpoint file"), e.c_str());

        // A damaged scalar that still passes the checksums (rewritten by a tool) is named.
        saveCheckpoint(path, weights, s);
        f = readSafetensors(state);
        f.metadata["ts_step"] = "12x";
        writeSafetensors(state, f.tensors, f.metadata);
        e = errorOf([&] { loadCheckpoint(path); });
        QVERIFY2(contains(e, state + ": metadata 'ts_step': expected a whole number, got '12x'"), e.c_str());

        std::filesystem::remove(state);
        e = errorOf([&] { loadCheckpoint(path); });
        QVERIFY2(contains(e, state + ": the training state file is missing"), e.c_str());
        QVERIFY(first.sha256 != sha256File(path));
    }

    void executorWeights()
    {
        Executor a(checkGraph(smallModel(), 4), cpuBackend()), b(checkGraph(smallModel(), 4), cpuBackend());
        a.initParameters(1);
        b.initParameters(2);
        NamedTensors wa = captureWeights(a);
        QCOMPARE(wa.size(), a.parameters().size());
        QCOMPARE(wa[0].first, std::string("fc1.weight"));
        QCOMPARE(wa[0].second.shape(), (Shape{8, 6}));
        // Buffers come along: give the running statistics values the init would not have.
        bool sawBuffer = false;
        for (auto& [name, t] : wa)
            if (name == "bn.running_mean") {
                sawBuffer = true;
                for (std::int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = 0.25f * float(i);
            }
        QVERIFY(sawBuffer);
        QVERIFY(!sameTensor(captureWeights(b)[0].second, wa[0].second));

        // Through a checkpoint on disk and into another executor: identical.
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.safetensors").toStdString();
        saveCheckpoint(path, wa, TrainingState{});
        restoreWeights(b, loadCheckpoint(path).weights, path);
        const NamedTensors wb = captureWeights(b);
        QCOMPARE(wb.size(), wa.size());
        for (std::size_t i = 0; i < wa.size(); ++i) QVERIFY2(wb[i].first == wa[i].first && sameTensor(wb[i].second, wa[i].second), wa[i].first.c_str());

        // Mismatches are named, and nothing is changed before all is checked.
        Executor c(checkGraph(smallModel(9), 4), cpuBackend());
        c.initParameters(3);
        const NamedTensors before = captureWeights(c);
        std::string e = errorOf([&] { restoreWeights(c, wa, path); });
        QCOMPARE(e, path + ": parameter 'fc1.weight': the file has f32 [8, 6], the model f32 [9, 6]");
        const NamedTensors after = captureWeights(c);
        for (std::size_t i = 0; i < before.size(); ++i) QVERIFY(sameTensor(before[i].second, after[i].second));

        NamedTensors missing(wa.begin(), wa.end() - 1);
        e = errorOf([&] { restoreWeights(b, missing, path); });
        QCOMPARE(e, path + ": parameter '" + wa.back().first + "' " + wa.back().second.shape().str() + " of the model is not in the file");
        NamedTensors extra = wa;
        extra.emplace_back("ghost.weight", Tensor::zeros(Shape{1}));
        e = errorOf([&] { restoreWeights(b, extra, path); });
        QCOMPARE(e, path + ": 'ghost.weight' in the file is not a parameter of the model");
        NamedTensors twice = wa;
        twice.push_back(wa[0]);
        QVERIFY(contains(errorOf([&] { restoreWeights(b, twice, path); }), "'fc1.weight' appears twice"));
    }

    void policyKeepsLastThreePlusBest()
    {
        CheckpointPolicy p({1, 3, "val_acc"}, "/runs/7");
        QCOMPARE(p.pathFor(15, 0.92345), std::string("/runs/7/epoch_015_val_acc_0.923.safetensors"));
        QCOMPARE(p.pathFor(15, std::nullopt), std::string("/runs/7/epoch_015.safetensors"));
        QCOMPARE(p.pathFor(15, std::nullopt, 4321), std::string("/runs/7/epoch_015_step_004321.safetensors"));
        QCOMPARE(p.pathFor(1234, std::numeric_limits<double>::quiet_NaN()), std::string("/runs/7/epoch_1234_val_acc_nan.safetensors"));
        QCOMPARE(CheckpointPolicy({1, 3, "val/top 5"}, "d/").pathFor(2, 1.5e-7), std::string("d/epoch_002_val_top_5_1.50e-07.safetensors"));

        // val_acc: higher is better. Epoch 2 is the best and stays when it falls out of the last 3.
        const double acc[] = {0.5, 0.9, 0.6, 0.7, 0.8, 0.85};
        std::vector<std::vector<std::string>> removed;
        std::vector<bool> bests;
        for (int e = 1; e <= 6; ++e) {
            bool best = false;
            removed.push_back(p.add({p.pathFor(e, acc[e - 1]), e, e * 10, acc[e - 1]}, best));
            bests.push_back(best);
        }
        QCOMPARE(bests, (std::vector<bool>{true, true, false, false, false, false}));
        QCOMPARE(removed[2], std::vector<std::string>{});
        QCOMPARE(removed[3], std::vector<std::string>{p.pathFor(1, 0.5)});
        QCOMPARE(removed[4], std::vector<std::string>{});  // 3, 4, 5 are the last three; 2 is the best
        QCOMPARE(removed[5], std::vector<std::string>{p.pathFor(3, 0.6)});
        std::vector<std::int64_t> epochs;
        for (const auto& k : p.kept()) epochs.push_back(k.epoch);
        QCOMPARE(epochs, (std::vector<std::int64_t>{2, 4, 5, 6}));
        QCOMPARE(p.best()->epoch, std::int64_t(2));
        // A new best: the old best, out of the last three, goes.
        bool best = false;
        QCOMPARE(p.add({p.pathFor(7, 0.95), 7, 70, 0.95}, best), (std::vector<std::string>{p.pathFor(2, 0.9), p.pathFor(4, 0.7)}));
        QVERIFY(best);
        // No metric and NaN are never best; a path written again is replaced, not deleted.
        QVERIFY(!p.isBetter(std::nullopt));
        QVERIFY(!p.isBetter(std::numeric_limits<double>::quiet_NaN()));
        QCOMPARE(p.add({p.pathFor(8, std::nullopt), 8, 80, std::nullopt}, best), std::vector<std::string>{p.pathFor(5, 0.8)});
        QVERIFY(!best);
        QCOMPARE(p.add({p.pathFor(8, std::nullopt), 8, 85, std::nullopt}, best), std::vector<std::string>{});
        QCOMPARE(p.kept().size(), std::size_t(3));  // 6, 7 (best), 8
        QCOMPARE(p.kept().back().step, std::int64_t(85));

        // val_loss: lower is better; restore() finds the best among what a run kept.
        CheckpointPolicy q({2, 2, "val_loss"}, "d");
        q.restore({{"d/a", 1, 1, 0.7}, {"d/b", 2, 2, 0.3}, {"d/c", 3, 3, 0.5}});
        QCOMPARE(q.best()->path, std::string("d/b"));
        QVERIFY(q.isBetter(0.2) && !q.isBetter(0.3) && !q.isBetter(0.4));
        QCOMPARE(q.add({"d/d", 4, 4, 0.6}, best), std::vector<std::string>{"d/a"});
        QCOMPARE(q.best()->path, std::string("d/b"));
        QCOMPARE(q.kept().size(), std::size_t(3));  // b (best), c, d

        // due(): every N epochs and the last one; never when N is 0.
        std::vector<std::int64_t> due;
        for (std::int64_t e = 1; e <= 7; ++e)
            if (q.due(e, 7)) due.push_back(e);
        QCOMPARE(due, (std::vector<std::int64_t>{2, 4, 6, 7}));
        const CheckpointPolicy never({0, 3, "val_acc"}, "d");
        for (std::int64_t e = 1; e <= 7; ++e) QVERIFY(!never.due(e, 7));
        QVERIFY(CheckpointPolicy({1, 3, "val_acc"}, "d").due(1, 7));
    }

    void pythonSafetensorsReadsOurFiles()
    {
        QProcess probe;
        probe.start("python3", {"-c", "import safetensors.numpy"});
        if (!probe.waitForFinished(30000) || probe.exitCode() != 0) QSKIP("the Python safetensors package is not installed");
        QTemporaryDir dir;
        const std::string path = dir.filePath("py.safetensors").toStdString();
        Tensor w = Tensor::empty(Shape{2, 2});
        for (int i = 0; i < 4; ++i) w.data<float>()[i] = 0.5f * float(i);
        writeSafetensors(path, {{"w", w}, {"n", Tensor::zeros(Shape{3}, DType::I64)}}, {{"k", "v"}});
        QProcess py;
        py.start("python3", {"-c", "import sys; from safetensors.numpy import load_file; from safetensors import safe_open\n"
                                   "t = load_file(sys.argv[1]); assert t['w'].tolist() == [[0, 0.5], [1, 1.5]], t\n"
                                   "assert t['n'].dtype.name == 'int64' and t['n'].shape == (3,)\n"
                                   "assert safe_open(sys.argv[1], 'np').metadata()['k'] == 'v'\n",
                             QString::fromStdString(path)});
        QVERIFY(py.waitForFinished(60000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"

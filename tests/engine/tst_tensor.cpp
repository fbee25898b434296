// Tensors, dtypes and the counting allocator.
#include <QtTest>

#include "tensor/tensor.h"

using namespace ts;

class TestTensor : public QObject {
    Q_OBJECT
private slots:
    void dtypeSizesAndNames()
    {
        QCOMPARE(dtypeSize(DType::F32), size_t(4));
        QCOMPARE(dtypeSize(DType::F16), size_t(2));
        QCOMPARE(dtypeSize(DType::BF16), size_t(2));
        QCOMPARE(dtypeSize(DType::I32), size_t(4));
        QCOMPARE(dtypeSize(DType::I64), size_t(8));
        QCOMPARE(dtypeSize(DType::U8), size_t(1));
        for (DType t : {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64, DType::U8})
            QCOMPARE(parseDType(dtypeName(t)), std::optional<DType>(t));
        QVERIFY(!parseDType("f64"));
    }

    void shapeBasics()
    {
        const Shape s{128, 1, 28, 28};
        QCOMPARE(s.rank(), 4);
        QCOMPARE(s.numel(), std::int64_t(128 * 784));
        QCOMPARE(s[-1], std::int64_t(28));
        QCOMPARE(s.product(1, 4), std::int64_t(784));
        QCOMPARE(s.str(), std::string("[128, 1, 28, 28]"));
        QCOMPARE(Shape{}.numel(), std::int64_t(1));  // a scalar
    }

    void tensorBytesFollowDtype()
    {
        Tensor t = Tensor::zeros(Shape{3, 5}, DType::I64);
        QCOMPARE(t.bytes(), size_t(3 * 5 * 8));
        QCOMPARE(t.data<std::int64_t>()[14], std::int64_t(0));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, t.data<float>());  // wrong type is refused
        QCOMPARE(t.device().kind, DeviceKind::CPU);
        QVERIFY(!Tensor().defined());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Tensor().raw());
    }

    void viewsShareStorage()
    {
        Tensor base = Tensor::full(Shape{16}, 1.0f);
        Tensor v = Tensor::view(base.storage(), 8 * sizeof(float), Shape{2, 4}, DType::F32);
        v.data<float>()[0] = 42.0f;
        QCOMPARE(base.data<float>()[8], 42.0f);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, Tensor::view(base.storage(), 60, Shape{2}, DType::F32));
        Tensor r = base.reshaped(Shape{4, 4});
        QCOMPARE(r.data<float>()[8], 42.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, base.reshaped(Shape{5, 3}));
        Tensor c = base.clone();
        c.data<float>()[8] = 0.0f;
        QCOMPARE(base.data<float>()[8], 42.0f);
    }

    void allocatorCountsAllocatedReservedPeak()
    {
        CpuAllocator alloc;
        const size_t a = CpuAllocator::roundedSize(1000), b = CpuAllocator::roundedSize(5000);
        QVERIFY(a >= 1000 && b >= 5000);
        {
            Tensor t1 = Tensor::empty(Shape{250}, DType::F32, alloc);  // 1000 bytes
            Tensor t2 = Tensor::empty(Shape{1250}, DType::F32, alloc); // 5000 bytes
            QCOMPARE(alloc.stats().allocated, a + b);
            QCOMPARE(alloc.stats().reserved, a + b);
            QCOMPARE(alloc.stats().peak, a + b);
        }
        // Freed blocks are cached: nothing allocated, still reserved, peak kept.
        QCOMPARE(alloc.stats().allocated, size_t(0));
        QCOMPARE(alloc.stats().reserved, a + b);
        QCOMPARE(alloc.stats().peak, a + b);
        {
            Tensor again = Tensor::empty(Shape{1250}, DType::F32, alloc);  // reuses the cached block
            QCOMPARE(alloc.stats().reserved, a + b);
            QCOMPARE(alloc.stats().allocated, b);
            QVERIFY(reinterpret_cast<std::uintptr_t>(again.raw()) % 64 == 0);
        }
        alloc.resetPeak();
        QCOMPARE(alloc.stats().peak, size_t(0));
        alloc.releaseCached();
        QCOMPARE(alloc.stats().reserved, size_t(0));
        QCOMPARE(alloc.stats().allocations, size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestTensor)
#include "tst_tensor.moc"

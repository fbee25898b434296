// Self-test cases: one step of the LSTM and GRU cells, forward and backward, inside a
// [batch, time, ...] layout (rows strided as the recurrent ops hand them over), from a zero
// state (null h_prev, c_prev) and from a given one.
#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

void cellCase(Harness& h, RecurrentCell cell, i64 batch, i64 hidden, bool zeroState)
{
    RecurrentStep s;
    s.cell = cell, s.batch = batch, s.hidden = hidden;
    const i64 time = 3, G = s.gates() * hidden;  // strides as for step 1 of 3 time steps
    s.gxStride = s.ghStride = time * G, s.actStride = time * 4 * hidden, s.hStride = time * hidden, s.cStride = time * hidden;
    const std::string shape = format("%s batch=%lld hidden=%lld%s", cell == RecurrentCell::LSTM ? "LSTM" : "GRU",
                                     (long long)batch, (long long)hidden, zeroState ? " zero state" : "");
    const i64 rows = batch * time;
    auto gx = h.uniform(rows * G, -2.0f, 2.0f), gh = h.uniform(rows * G, -2.0f, 2.0f);
    auto hPrev = h.uniform(rows * hidden), cPrev = h.uniform(rows * hidden);
    auto act = h.uniform(rows * 4 * hidden), c = h.uniform(rows * hidden), hOut = h.uniform(rows * hidden);
    const bool lstm = cell == RecurrentCell::LSTM;
    const auto at = [](const Buffer<float>& b, int side, i64 offset) { return b[side] + offset; };
    h.check(Primitive::recurrentCellForward, shape, h.elementwiseTolerance(),
            [&](Backend& be, int side) {
                be.recurrentCellForward(s, at(gx, side, G), at(gh, side, G), zeroState ? nullptr : hPrev[side],
                                        zeroState || !lstm ? nullptr : cPrev[side], at(act, side, 4 * hidden),
                                        at(c, side, hidden), at(hOut, side, hidden));
            },
            {h.out("act", act), h.out("h", hOut), h.out("c", c)});

    h.mirrorReference(act), h.mirrorReference(c);
    auto dh = h.uniform(rows * hidden), dc = h.uniform(batch * hidden), dhPrev = h.uniform(rows * hidden);
    auto dgx = h.uniform(rows * G), dgh = h.uniform(rows * G);
    h.check(Primitive::recurrentCellBackward, shape, h.elementwiseTolerance(),
            [&](Backend& be, int side) {
                be.recurrentCellBackward(s, at(act, side, 4 * hidden), zeroState ? nullptr : hPrev[side],
                                         zeroState || !lstm ? nullptr : cPrev[side], at(c, side, hidden),
                                         at(dh, side, hidden), dc[side], at(dgx, side, G),
                                         lstm ? nullptr : at(dgh, side, G), zeroState ? nullptr : dhPrev[side]);
            },
            {h.out("dgx", dgx), h.out("dgh", dgh), h.out("dc", dc), h.out("dhPrev", dhPrev)});
}

}  // namespace

void recurrentCases(Harness& h)
{
    const i64 batch = h.large() ? 128 : 5, hidden = h.large() ? 256 : 7;
    for (RecurrentCell cell : {RecurrentCell::LSTM, RecurrentCell::GRU})
        for (bool zeroState : {false, true}) cellCase(h, cell, batch, hidden, zeroState);
}

}  // namespace ts::selftest

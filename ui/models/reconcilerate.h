// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcileRate: the status bar's "rec/s", reconciles per second over a sliding window, with the
// time passed in (so it decays to 0 when nothing reconciles, and tests need no clock).

#include <QList>

namespace opbench::ui {

class ReconcileRate
{
public:
    explicit ReconcileRate(qint64 windowMs = 5000)
        : m_windowMs(windowMs)
    { }

    /// `count` reconciles finished at `nowMs` (ms since the epoch).
    void add(int count, qint64 nowMs);
    /// Reconciles per second over the window ending at `nowMs`; forgets older ones.
    double perSecond(qint64 nowMs);

private:
    struct Batch
    {
        qint64 atMs;
        int count;
    };
    qint64 m_windowMs;
    QList<Batch> m_batches; // oldest first
};

} // namespace opbench::ui

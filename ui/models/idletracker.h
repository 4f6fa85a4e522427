// SPDX-License-Identifier: Apache-2.0
#pragma once
// IdleTracker: says when the controller has had nothing to do for a while — the queue empty
// (nothing ready, processing or waiting) for `quietSamples` consecutive queue samples with no
// reconcile finishing meanwhile — so the window can suggest what to try next. Counted in the
// engine's samples (one every 500 ms), not in wall-clock time.

#include "ui/session/snapshots.h"

#include <QObject>

namespace opbench::ui {

class IdleTracker : public QObject
{
    Q_OBJECT
public:
    /// 20 samples: ten seconds of an empty queue at the QueueObserver's rate.
    explicit IdleTracker(int quietSamples = 20, QObject *parent = nullptr);

    bool isIdle() const { return m_idle; }

public Q_SLOTS:
    void addSample(const opbench::workbench::QueueSample &sample);
    /// Reconciles finished (any number > 0 ends the idle period).
    void addReconciles(int count);

Q_SIGNALS:
    void idleChanged(bool idle);

private:
    void setIdle(bool idle);

    int m_quietSamples;
    int m_quiet = 0;
    bool m_idle = false;
};

} // namespace opbench::ui

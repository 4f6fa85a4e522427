// SPDX-License-Identifier: Apache-2.0
#pragma once
// ControllerObserver: the Reconciles panel and the Control toolbar's view of one controller.
// Batches finished reconcile traces (every 100 ms), publishes the stepping state, and carries
// the stepping intents (pause, step, step into, continue, breakpoints) to the controller.
//
// Lives on the engine thread; the controller is not owned (observe(nullptr) before it goes).
// Every intent is a no-op without a controller and answers with a fresh controlState().

#include "engine/workbench/snapshots.h"

#include "engine/controller/controller.h"

#include "engine/controller/reconciletrace.h"

#include <QObject>
#include <QPointer>

class QTimer;

namespace opbench::workbench {

class ControllerObserver : public QObject
{
    Q_OBJECT
public:
    explicit ControllerObserver(QObject *parent = nullptr);
    ~ControllerObserver() override;

    /// Observes `controller` (not owned); null stops.
    void observe(Controller *controller);
    Controller *controller() const { return m_controller; }

public Q_SLOTS:
    void pause();
    void resume();
    /// Step: one reconcile of `key` (empty: the next item). While a reconcile is halted before a
    /// call (step into), Step lets that one call go out instead.
    void step(const QString &key = {});
    /// Step into: one reconcile halting before each of its client calls.
    void stepInto(const QString &key = {});
    void continueCall();
    void continueToEnd();
    /// Continue: finishes a halted reconcile without further stops, else resumes the workers.
    void continueRunning();
    void toggleBreakpoint(const QString &key);
    void setBreakOnError(bool on);

Q_SIGNALS:
    /// Reconciles finished since the previous flush (batched every 100 ms).
    void reconcilesFinished(const QList<opbench::ReconcileTrace> &traces);
    void controlState(const opbench::workbench::ControlState &state);

private:
    void emitControlState();
    void flush();

    QPointer<Controller> m_controller;
    QList<ReconcileTrace> m_pending;
    QString m_lastBreak;
    QTimer *m_flushTimer; // child
};

} // namespace opbench::workbench

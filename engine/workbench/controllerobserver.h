// SPDX-License-Identifier: Apache-2.0
#pragma once
// ControllerObserver: the Reconciles panel and the Control toolbar's view of one controller.
// Batches finished reconcile traces (every 100 ms), publishes the stepping state and the
// reconcile being stepped as it advances (currentReconcile: the debugger's frame), and carries
// the stepping intents (pause, step, step into, step over a call, step out, continue, run to
// a key, breakpoints) to the controller.
//
// Lives on the engine thread; the controller is not owned (observe(nullptr) before it goes).
// Every intent is a no-op without a controller and answers with a fresh controlState().

#include "engine/workbench/snapshots.h"

#include "engine/controller/controller.h"

#include "engine/controller/reconciletrace.h"

#include <QHash>
#include <QObject>
#include <QPointer>

class QTimer;

namespace opbench {
class WebhookGate;
struct WebhookGateState;
} // namespace opbench

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
    /// Where "webhook …" breakpoints go (not owned): the Breakpoints dock lists them with the
    /// controller's, and add/remove/enable reach the gate for its ids.
    void setWebhookGate(WebhookGate *gate);

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
    /// Continue (the toolbar's): lets every webhook call the gate holds go on, and finishes a
    /// halted reconcile without further stops, else resumes the workers.
    void continueRunning();
    /// Step over call: lets the halted call go out; the reconcile halts before its next one.
    void stepOver();
    /// Step out: the halted reconcile runs to its end without stops; the controller stays paused.
    void stepOut();
    /// Continue (the debugger's): every reconcile in flight runs to its end, then the workers
    /// run normally again.
    void continueAll();
    /// Run to the next reconcile of `key` ("ns/name"): runs normally until the queue hands out
    /// that key, then pauses and steps into it.
    void runToKey(const QString &key);
    void toggleBreakpoint(const QString &key);
    /// Adds a breakpoint typed as Breakpoint::parse() reads it ("key default/web", "kind
    /// MyApplication", "error", "before write Deployment", "status.phase == Failed"), or a
    /// webhook breakpoint ("webhook /validate-…", webhookbreakpoint.h) for the gate; a text it
    /// cannot read is reported in ControlState::breakpointError, a webhook breakpoint the gate
    /// cannot hit here (a real cluster) in ControlState::breakpointNote.
    void addBreakpoint(const QString &spec);
    void removeBreakpoint(int id);
    void setBreakpointEnabled(int id, bool on);
    void setBreakOnError(bool on);
    /// A replay (ReplaySession::breakpointHit) stopped at breakpoint `id` (0: break on errors) of
    /// `controller` before or in a reconcile of `key`: shown and counted as a live hit.
    void replayBreakpointHit(const QString &controller, int id, const QString &reason, const QString &key);

Q_SIGNALS:
    /// Reconciles finished since the previous flush (batched every 100 ms).
    void reconcilesFinished(const QList<opbench::ReconcileTrace> &traces);
    void controlState(const opbench::workbench::ControlState &state);
    /// The reconcile being stepped, after each change (see CurrentReconcile).
    void currentReconcile(const opbench::workbench::CurrentReconcile &frame);

private:
    void emitControlState();
    /// The gate's breakpoints (each saying why it never hits, if so) and held calls, into `s`.
    static void addWebhookState(ControlState &s, const WebhookGateState &gate);
    void flush();
    void onProgress(const ReconcileTrace &trace);
    void onCallPending(const PendingCall &call);
    void onCallResumed(const QString &reconcileId);
    void onFinished(const ReconcileTrace &trace);
    void onBreakpointHit(const QString &reason, const QString &key);
    void noteBreakpointHit(int id, const QString &reason, const QString &key);

    QPointer<Controller> m_controller;
    QPointer<WebhookGate> m_webhookGate;
    QList<ReconcileTrace> m_pending;
    QString m_lastBreak;
    int m_lastBreakId = 0;
    QString m_breakpointError;
    QString m_breakpointNote; // the last breakpoint added never hits here (why)
    QHash<int, int> m_hits;   // breakpoint id -> times hit
    CurrentReconcile m_frame;
    QTimer *m_flushTimer; // child
};

} // namespace opbench::workbench

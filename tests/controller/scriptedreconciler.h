// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test doubles for controller tests: a scripted reconciler that records requests, can hold
// reconciles until released, throw, or read through a Client; a capturing log sink; and helpers
// to build objects and a started controller.

#include "engine/base/clock.h"
#include "engine/base/metrics.h"
#include "engine/controller/client.h"
#include "engine/controller/controller.h"
#include "engine/testing/fakeclock.h"

#include <QSet>

#include <coroutine>
#include <functional>

namespace opbench::test {

class ScriptedReconciler final : public Reconciler
{
public:
    QCoro::Task<ReconcileOutcome> reconcile(Request request) override;

    /// The outcome for a request (default: success).
    std::function<ReconcileOutcome(const Request &)> script;
    /// Hold every reconcile until release() / releaseAll().
    bool hold = false;
    /// Throw this text (as std::runtime_error) instead of returning.
    QString throwText;
    /// Before returning, get each of these ConfigMaps ("ns/name") through `client`.
    Client *client = nullptr;
    QStringList reads;

    QList<Request> requests;
    QStringList finishedKeys;
    QSet<QString> running;
    int maxInFlight = 0;
    bool overlapSeen = false;

    /// Resumes the oldest held reconcile. False when none is held.
    bool release();
    void releaseAll();
    [[nodiscard]] int held() const { return int(m_held.size()); }

private:
    struct Hold
    {
        ScriptedReconciler *r;
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<> h) { r->m_held.append(h); }
        void await_resume() const noexcept { }
    };
    QList<std::coroutine_handle<>> m_held;
};

class CapturingSink final : public LogSink
{
public:
    bool enabled(int verbosity) const override { return verbosity <= 10; }
    void write(const LogRecord &record) override { records.append(record); }
    QList<LogRecord> records;
    [[nodiscard]] int count(const QString &message, bool errorsOnly) const;
};

/// A ConfigMap in `ns` named `name`.
Object configMap(const QString &ns, const QString &name, const QString &rv = QStringLiteral("1"), qint64 generation = 1,
    const Labels &labels = {});
GroupVersionKind configMapGvk();

/// Options for a test controller: FakeClock, its own metrics registry, unique name skipped.
ControllerOptions testOptions(const QString &name, testing::FakeClock *clock, MetricsRegistry *metrics,
    WorkQueue::Kind kind = WorkQueue::Kind::Plain);

/// Builds and starts a controller (no sources). Fails the test on error.
Controller *startedController(ControllerOptions options, std::shared_ptr<Reconciler> reconciler, QObject *parent);

/// Runs the event loop until `pred` holds; false after `timeoutMs` (a generous bound for a
/// loaded machine: the condition, not the time, is what the test waits for).
bool waitUntil(const std::function<bool()> &pred, int timeoutMs = 20000);

} // namespace opbench::test

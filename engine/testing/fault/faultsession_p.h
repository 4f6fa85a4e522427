// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to the fault harness: FaultHarness::Session, one run's world (one API server,
// restartable from its state file; one operator, crashable; the counters a RunReport is made
// of), and the small helpers the harness's runs share.

#include "engine/testing/fault/faultharness.h"

#include "engine/api/restmapper.h"
#include "engine/api/status.h"
#include "engine/cache/informer.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/controller/client.h"
#include "engine/controller/controller.h"
#include "engine/manager/manager.h"
#include "engine/recording/runrecorder.h"
#include "engine/testing/testapiserver.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace opbench::testing {

namespace detail {

/// Runs the event loop for `ms` (lets the operator, the server thread's replies and timers run).
void spin(int ms);
bool retriable(const Status &s);
QString describeObject(const Object &o);

} // namespace detail

// Session: one server (restartable from its state file), one operator (crashable), counters.
class FaultHarness::Session
{
    Q_DISABLE_COPY_MOVE(Session)
public:
    explicit Session(const FaultHarness &h);
    ~Session();

    // --- the server ---
    bool startServer();
    /// Adds the server's fired-fault counts to m_fired (before it goes away, and at the end).
    void collectFired();
    bool restartServer();
    void setFaults(const QStringList &faults);
    /// Moves the server's resourceVersion past what the operator's caches saw (a write no
    /// informer of theirs watches), forgets the watch history and drops every watch: each
    /// resume gets 410, and so does the relist at the cache's version, so the reflector falls
    /// back to a consistent (paginated) list.
    void expireWatches();

    // --- the operator ---
    bool startOperator();
    void stopOperator();
    void crashAfter(int writeIndex) { m_crashAfter = writeIndex; }
    bool crashed() const { return m_crashed; }
    void observe(Client *client, const TraceCall &call, const Object &sent);

    // --- the workload ---
    std::optional<ResourceMapping> mappingOf(const GroupVersionKind &gvk) const { return m_mapper.forKind(gvk); }
    bool apply(const Step &step);
    bool applyAll(const Workload &w);
    template<class Fn> auto retried(Fn fn) -> decltype(fn())
    {
        QElapsedTimer t;
        t.start();
        for (;;) {
            auto r = fn();
            if (r.ok() || !detail::retriable(r.error()) || t.elapsed() > m_h.m_options.convergeTimeout.count())
                return r;
            detail::spin(50);
        }
    }
    Expected<QList<Object>> listAll(const GroupVersionResource &gvr);
    Expected<Object> get(const Object &target);
    bool createPadding(int count, const Object &templ);

    // --- quiescence and the end state ---
    /// Why the operator is not quiescent right now ("" when it is).
    QString busy();
    /// Waits until busy() stays empty, with no reconcile, for the settle time.
    bool waitQuiescent(std::chrono::milliseconds timeout = {});
    /// Waits until the queue is drained and nothing runs (delayed retries may wait): the operator
    /// has done what it does on its current (possibly stale) view.
    bool waitIdle();
    EndState snapshot();
    /// The objects `owner` controls (masked, generation and revision counters left out).
    QMap<QString, QByteArray> controlledBy(const Object &owner);

    // --- hooks on the operator's informers ---
    QList<Informer *> informersOf(const QList<GroupVersionKind> &kinds) const;

    bool fail(const QString &why);
    RunReport report(bool ok);

    const FaultHarness &m_h;
    RestMapper m_mapper;
    QRandomGenerator m_random;
    QTemporaryDir m_dir;
    quint16 m_port = 0;
    std::unique_ptr<testing::TestApiServer> m_server;
    RestConfig m_config;
    std::unique_ptr<RestClient> m_rest;
    std::unique_ptr<Manager> m_mgr;
    std::unique_ptr<RunRecorder> m_recorder; // HarnessOptions::recordingDir
    QPointer<Controller> m_ctrl;
    int m_reconciles = 0;
    int m_writes = 0;
    int m_conflicts = 0;
    int m_transportErrors = 0;
    QMap<QString, int> m_fired;
    bool m_bumpNamespace = false;
    int m_bumps = 0;
    int m_unconditional = 0;
    bool m_staleWindow = false;
    int m_crashAfter = 0;
    bool m_crashed = false;
    QStringList m_writeLog;
    QString m_error;
};

} // namespace opbench::testing

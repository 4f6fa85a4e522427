// SPDX-License-Identifier: Apache-2.0
#include "tests/controller/scriptedreconciler.h"
#include "engine/testing/fakeclock.h"

#include <QJsonArray>
#include <QTest>

#include <qcoro/qcorotask.h>

#include <stdexcept>

namespace opbench::test {

QCoro::Task<ReconcileOutcome> ScriptedReconciler::reconcile(Request request)
{
    const QString key = request.key().toString();
    requests.append(request);
    if (running.contains(key))
        overlapSeen = true;
    running.insert(key);
    maxInFlight = std::max(maxInFlight, int(running.size()));
    if (hold)
        co_await Hold{this};
    for (const QString &r : std::as_const(reads)) {
        const QueueKey k = QueueKey::fromString(r);
        (void)co_await client->get(request.ctx, configMapGvk(), k.ns, k.name);
    }
    running.remove(key);
    finishedKeys.append(key);
    if (!throwText.isEmpty())
        throw std::runtime_error(throwText.toStdString());
    co_return script ? script(request) : ReconcileOutcome();
}

bool ScriptedReconciler::release()
{
    if (m_held.isEmpty())
        return false;
    m_held.takeFirst().resume();
    return true;
}

void ScriptedReconciler::releaseAll()
{
    while (release()) { }
}

int CapturingSink::count(const QString &message, bool errorsOnly) const
{
    int n = 0;
    for (const LogRecord &r : records)
        if (r.message == message && (!errorsOnly || r.isError))
            ++n;
    return n;
}

GroupVersionKind configMapGvk() { return {QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")}; }

Object configMap(const QString &ns, const QString &name, const QString &rv, qint64 generation, const Labels &labels)
{
    QJsonObject meta{{QStringLiteral("name"), name}, {QStringLiteral("resourceVersion"), rv},
        {QStringLiteral("generation"), generation}, {QStringLiteral("uid"), QStringLiteral("uid-") + name}};
    if (!ns.isEmpty())
        meta.insert(QStringLiteral("namespace"), ns);
    if (!labels.isEmpty()) {
        QJsonObject l;
        for (auto it = labels.begin(); it != labels.end(); ++it)
            l.insert(it.key(), it.value());
        meta.insert(QStringLiteral("labels"), l);
    }
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("metadata"), meta}});
}

ControllerOptions testOptions(
    const QString &name, testing::FakeClock *clock, MetricsRegistry *metrics, WorkQueue::Kind kind)
{
    ControllerOptions o;
    o.name = name;
    o.clock = clock;
    o.metrics = metrics;
    o.queueKind = kind;
    o.skipNameValidation = true;
    o.forKind = configMapGvk();
    return o;
}

Controller *startedController(ControllerOptions options, std::shared_ptr<Reconciler> reconciler, QObject *parent)
{
    auto c = Controller::create(std::move(options), std::move(reconciler), parent);
    if (!c.ok()) {
        qWarning("controller: %s", qPrintable(c.error().message()));
        return nullptr;
    }
    const Expected<void> started = QCoro::waitFor((*c)->start());
    if (!started.ok()) {
        qWarning("start: %s", qPrintable(started.error().message()));
        return nullptr;
    }
    return *c;
}

bool waitUntil(const std::function<bool()> &pred, int timeoutMs) { return QTest::qWaitFor(pred, timeoutMs); }

} // namespace opbench::test

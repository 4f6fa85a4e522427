// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/reconciletrace.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench {

namespace {

double millis(Clock::Duration d)
{
    return double(std::chrono::duration_cast<std::chrono::microseconds>(d).count()) / 1000.0;
}

QJsonArray diffJson(const QList<DiffEntry> &diff)
{
    QJsonArray a;
    for (const DiffEntry &e : diff)
        a.append(e.toJson());
    return a;
}

QJsonObject causeJson(const Cause &c)
{
    QJsonObject o{{QStringLiteral("kind"), Cause::kindName(c.kind)}, {QStringLiteral("text"), c.describe()}};
    if (c.event != Cause::EventType::None)
        o.insert(QStringLiteral("event"), Cause::eventName(c.event));
    if (!c.sourceGvk.isEmpty())
        o.insert(QStringLiteral("sourceGvk"), c.sourceGvk);
    if (!c.sourceKey.isEmpty())
        o.insert(QStringLiteral("sourceKey"), c.sourceKey);
    if (!c.resourceVersion.isEmpty())
        o.insert(QStringLiteral("resourceVersion"), c.resourceVersion);
    if (c.attempt > 0)
        o.insert(QStringLiteral("attempt"), c.attempt);
    if (c.delay.count() > 0)
        o.insert(QStringLiteral("delayMs"), millis(c.delay));
    return o;
}

} // namespace

void PendingCall::fillRequest()
{
    if (!body.isEmpty() || sends.isNull())
        return;
    body = sends.json();
    if (!replaces.isNull())
        diff = jsonDiff(replaces.json(), body);
}

QJsonObject PendingCall::toJson() const
{
    return QJsonObject{{QStringLiteral("reconcileID"), reconcileId}, {QStringLiteral("controller"), controller},
        {QStringLiteral("index"), index}, {QStringLiteral("verb"), verb}, {QStringLiteral("kind"), gvk.toString()},
        {QStringLiteral("key"), key}, {QStringLiteral("fromCache"), fromCache}, {QStringLiteral("body"), body},
        {QStringLiteral("diff"), diffJson(diff)}};
}

QList<DiffEntry> TraceCall::diff() const
{
    return hasDiff ? jsonDiff(diffBefore.json(), diffAfter.json()) : QList<DiffEntry>();
}

QJsonObject TraceCall::toJson() const
{
    QJsonObject o{{QStringLiteral("verb"), verb}, {QStringLiteral("kind"), gvk.toString()},
        {QStringLiteral("key"), key}, {QStringLiteral("fromCache"), fromCache}, {QStringLiteral("code"), code},
        {QStringLiteral("latencyMs"), millis(latency)},
        {QStringLiteral("startedAt"), startedAt.toString(Qt::ISODateWithMs)}};
    if (!reason.isEmpty())
        o.insert(QStringLiteral("reason"), reason);
    if (!message.isEmpty())
        o.insert(QStringLiteral("message"), message);
    if (items >= 0)
        o.insert(QStringLiteral("items"), items);
    if (!resourceVersion.isEmpty())
        o.insert(QStringLiteral("resourceVersion"), resourceVersion);
    if (!patch.isEmpty())
        o.insert(QStringLiteral("patch"), QString::fromUtf8(patch));
    if (const QList<DiffEntry> d = diff(); !d.isEmpty())
        o.insert(QStringLiteral("diff"), diffJson(d));
    return o;
}

QString ReconcileTrace::resultName(Result r)
{
    switch (r) {
    case Result::Success:
        return QStringLiteral("success");
    case Result::Requeue:
        return QStringLiteral("requeue");
    case Result::RequeueAfter:
        return QStringLiteral("requeue_after");
    case Result::Error:
        return QStringLiteral("error");
    case Result::TerminalError:
        return QStringLiteral("terminal_error");
    }
    return {};
}

QJsonObject ReconcileTrace::toJson() const
{
    QJsonArray causeArray;
    for (const Cause &c : causes)
        causeArray.append(causeJson(c));
    QJsonArray callArray;
    for (const TraceCall &c : calls)
        callArray.append(c.toJson());
    QJsonObject o{{QStringLiteral("reconcileID"), id}, {QStringLiteral("controller"), controller},
        {QStringLiteral("namespace"), request.ns}, {QStringLiteral("name"), request.name},
        {QStringLiteral("causes"), causeArray}, {QStringLiteral("causesDropped"), causes.dropped()},
        {QStringLiteral("priority"), priority}, {QStringLiteral("retries"), retries},
        {QStringLiteral("cacheResourceVersion"), cacheResourceVersion}, {QStringLiteral("calls"), callArray},
        {QStringLiteral("result"), resultName(result)},
        {QStringLiteral("startedAt"), startedAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("durationMs"), millis(duration)}};
    if (result == Result::RequeueAfter)
        o.insert(QStringLiteral("requeueAfterMs"), millis(requeueAfter));
    if (!error.isEmpty()) {
        o.insert(QStringLiteral("error"), error);
        o.insert(QStringLiteral("errorCode"), errorCode);
    }
    if (panicked)
        o.insert(QStringLiteral("panicked"), true);
    if (timedOut)
        o.insert(QStringLiteral("timedOut"), true);
    return o;
}

QByteArray ReconcileTrace::toJsonLine() const { return QJsonDocument(toJson()).toJson(QJsonDocument::Compact); }

TraceWriter::TraceWriter(QString path, QObject *parent)
    : QObject(parent)
    , m_file(std::move(path))
{ }

TraceWriter::~TraceWriter() = default;

bool TraceWriter::open(QString *error)
{
    if (m_file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        return true;
    if (error)
        *error
            = QStringLiteral("cannot open trace file %1 for writing: %2").arg(m_file.fileName(), m_file.errorString());
    return false;
}

void TraceWriter::write(const ReconcileTrace &trace)
{
    if (!m_file.isOpen())
        return;
    m_file.write(trace.toJsonLine() + '\n');
    m_file.flush();
    ++m_written;
}

} // namespace opbench

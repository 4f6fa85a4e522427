// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/cause.h"

namespace opbench {

Cause Cause::watchEvent(EventType type, QString gvk, QString key, QString rv)
{
    Cause c;
    c.kind = Kind::WatchEvent;
    c.event = type;
    c.sourceGvk = std::move(gvk);
    c.sourceKey = std::move(key);
    c.resourceVersion = std::move(rv);
    return c;
}

Cause Cause::ownerMapping(EventType type, QString childGvk, QString childKey, QString rv)
{
    Cause c = watchEvent(type, std::move(childGvk), std::move(childKey), std::move(rv));
    c.kind = Kind::OwnerMapping;
    return c;
}

Cause Cause::requeueAfter(Clock::Duration d)
{
    Cause c;
    c.kind = Kind::RequeueAfter;
    c.delay = d;
    return c;
}

Cause Cause::rateLimitedRetry(int attempt, QString error)
{
    Cause c;
    c.kind = Kind::RateLimitedRetry;
    c.attempt = attempt;
    c.text = std::move(error);
    return c;
}

namespace {
const QLatin1String kRequeueRequested("requeue requested");
}

Cause Cause::requestedRequeue(int attempt) { return rateLimitedRetry(attempt, kRequeueRequested); }

bool Cause::isRequestedRequeue() const { return kind == Kind::RateLimitedRetry && text == kRequeueRequested; }

Cause Cause::manual(QString note)
{
    Cause c;
    c.kind = Kind::Manual;
    c.text = std::move(note);
    return c;
}

Cause Cause::initialList(QString gvk, QString key, QString rv)
{
    Cause c = watchEvent(EventType::Added, std::move(gvk), std::move(key), std::move(rv));
    c.kind = Kind::InitialList;
    return c;
}

QString Cause::kindName(Kind k)
{
    switch (k) {
    case Kind::Unspecified:
        return QStringLiteral("unspecified");
    case Kind::WatchEvent:
        return QStringLiteral("watch");
    case Kind::OwnerMapping:
        return QStringLiteral("owner");
    case Kind::RequeueAfter:
        return QStringLiteral("requeue-after");
    case Kind::RateLimitedRetry:
        return QStringLiteral("retry");
    case Kind::Manual:
        return QStringLiteral("manual");
    case Kind::InitialList:
        return QStringLiteral("initial-list");
    }
    return QString();
}

QString Cause::eventName(EventType e)
{
    switch (e) {
    case EventType::None:
        return QString();
    case EventType::Added:
        return QStringLiteral("ADDED");
    case EventType::Modified:
        return QStringLiteral("MODIFIED");
    case EventType::Deleted:
        return QStringLiteral("DELETED");
    case EventType::Sync:
        return QStringLiteral("SYNC");
    }
    return QString();
}

namespace {
QString millis(Clock::Duration d)
{
    const double ms = std::chrono::duration<double, std::milli>(d).count();
    return ms >= 1000.0 ? QString::number(ms / 1000.0, 'g', 4) + u's'
                        : QString::number(ms, 'g', 4) + QLatin1String("ms");
}

QString source(const Cause &c)
{
    QString out = c.sourceGvk.isEmpty() ? c.sourceKey : c.sourceGvk + u' ' + c.sourceKey;
    if (!c.resourceVersion.isEmpty())
        out += QLatin1String(" rv ") + c.resourceVersion;
    return out;
}
} // namespace

QString Cause::describe() const
{
    switch (kind) {
    case Kind::WatchEvent:
        return QLatin1String("watch ") + eventName(event) + u' ' + source(*this);
    case Kind::OwnerMapping:
        return QStringLiteral("owner \u2190 ") + eventName(event) + u' ' + source(*this);
    case Kind::InitialList:
        return QLatin1String("initial list ") + source(*this);
    case Kind::RequeueAfter:
        return QLatin1String("requeue after ") + millis(delay);
    case Kind::RateLimitedRetry:
        return QLatin1String("retry #") + QString::number(attempt) + QLatin1String(" after ") + millis(delay)
            + (text.isEmpty() ? QString() : QLatin1String(": ") + text);
    case Kind::Manual:
        return text.isEmpty() ? QStringLiteral("manual") : QLatin1String("manual: ") + text;
    case Kind::Unspecified:
        break;
    }
    return QStringLiteral("unspecified");
}

void CauseList::mergeAll(CauseList &&other, int limit)
{
    if (isEmpty() && other.m_size <= limit) {
        *this = std::move(other);
        return;
    }
    for (int i = 0; i < other.m_size; ++i)
        merge(i == 0 ? std::move(other.m_first) : std::move(other.m_rest[i - 1]), limit);
    m_dropped += other.m_dropped;
    other = CauseList();
}

QList<Cause> CauseList::toList() const
{
    QList<Cause> out;
    out.reserve(m_size);
    for (const Cause &c : *this)
        out.append(c);
    return out;
}

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/faults.h"

#include <QRandomGenerator>

namespace opbench::apiserver {

namespace {

/// "500ms" / "5s" / "1m" / bare number (in `bareUnitMs`).
std::optional<int> parseDurationMs(const QString &v, int bareUnitMs)
{
    bool ok = false;
    double n = 0;
    if (v.endsWith(QLatin1String("ms")))
        n = v.chopped(2).toDouble(&ok);
    else if (v.endsWith(u's'))
        n = v.chopped(1).toDouble(&ok) * 1000;
    else if (v.endsWith(u'm'))
        n = v.chopped(1).toDouble(&ok) * 60000;
    else
        n = v.toDouble(&ok) * bareUnitMs;
    if (!ok || n < 0)
        return std::nullopt;
    return int(n);
}

Status bad(const QString &text, const QString &why)
{
    return Status::badRequest(QStringLiteral("invalid fault \"%1\": %2").arg(text, why));
}

/// The 409 a write with a stale resourceVersion gets, word for word as Kubernetes words it
/// (k8s.io/apiserver's storage conflict: reason Conflict, the resource qualified by its group).
Status conflict(const FaultRequest &r)
{
    const QString resource = r.apiGroup.isEmpty() ? r.resource : r.resource + u'.' + r.apiGroup;
    StatusDetails details;
    details.name = r.name;
    details.group = r.apiGroup;
    details.kind = r.resource;
    return Status(409, Status::reasonForCode(409),
        QStringLiteral("Operation cannot be fulfilled on %1 \"%2\": the object has been modified; please apply your "
                       "changes to the latest version and try again")
            .arg(resource, r.name),
        details);
}

} // namespace

Expected<FaultSpec> FaultSpec::parse(const QString &text)
{
    const qsizetype colon = text.indexOf(u':');
    const QString kind = (colon < 0 ? text : text.left(colon)).trimmed();
    FaultSpec f;
    if (kind == QLatin1String("drop-watch"))
        f.kind = Kind::DropWatch;
    else if (kind == QLatin1String("error"))
        f.kind = Kind::Error;
    else if (kind == QLatin1String("throttle"))
        f.kind = Kind::Throttle;
    else if (kind == QLatin1String("latency"))
        f.kind = Kind::Latency;
    else if (kind == QLatin1String("reset"))
        f.kind = Kind::Reset;
    else if (kind == QLatin1String("expire-continue"))
        f.kind = Kind::ExpireContinue;
    else
        return bad(text,
            QStringLiteral("unknown kind \"%1\" (drop-watch, error, throttle, latency, reset, expire-continue)")
                .arg(kind));
    const QStringList params = colon < 0 ? QStringList() : text.mid(colon + 1).split(u',', Qt::SkipEmptyParts);
    for (const QString &p : params) {
        const QString key = p.section(u'=', 0, 0).trimmed();
        const QString value = p.section(u'=', 1).trimmed();
        bool ok = true;
        if (key == QLatin1String("rate")) {
            f.rate = value.toDouble(&ok);
            ok = ok && f.rate >= 0 && f.rate <= 1;
        } else if (key == QLatin1String("code")) {
            f.code = value.toInt(&ok);
            ok = ok && f.code >= 400 && f.code <= 599;
        } else if (key == QLatin1String("retry-after")) {
            auto ms = parseDurationMs(value, 1000);
            ok = ms.has_value();
            f.retryAfter = qMax(1, ms.value_or(0) / 1000);
        } else if (key == QLatin1String("ms")) {
            auto ms = parseDurationMs(value, 1);
            ok = ms.has_value();
            f.latencyMs = ms.value_or(0);
        } else if (key == QLatin1String("verb")) {
            f.verb = value;
        } else if (key == QLatin1String("resource")) {
            f.resource = value;
        } else if (key == QLatin1String("name")) {
            f.name = value;
            ok = !value.isEmpty();
        } else if (key == QLatin1String("user")) {
            f.user = value;
            ok = !value.isEmpty();
        } else if (key == QLatin1String("agent")) {
            f.agent = value;
            ok = !value.isEmpty();
        } else if (key == QLatin1String("count")) {
            f.count = value.toInt(&ok);
            ok = ok && f.count >= 0;
        } else if (key == QLatin1String("every")) {
            auto ms = parseDurationMs(value, 1000);
            ok = ms.has_value() && *ms > 0;
            f.everyMs = ms.value_or(0);
        } else {
            return bad(text, QStringLiteral("unknown parameter \"%1\"").arg(key));
        }
        if (!ok)
            return bad(text, QStringLiteral("bad value for %1: \"%2\"").arg(key, value));
    }
    if (f.kind == Kind::DropWatch && f.everyMs <= 0)
        return bad(text, QStringLiteral("drop-watch needs every=DURATION"));
    return f;
}

QString FaultSpec::toString() const
{
    QString filters;
    if (!verb.isEmpty())
        filters += QStringLiteral(",verb=") + verb;
    if (!resource.isEmpty())
        filters += QStringLiteral(",resource=") + resource;
    if (!name.isEmpty())
        filters += QStringLiteral(",name=") + name;
    if (!user.isEmpty())
        filters += QStringLiteral(",user=") + user;
    if (!agent.isEmpty())
        filters += QStringLiteral(",agent=") + agent;
    if (count > 0)
        filters += QStringLiteral(",count=%1").arg(count);
    switch (kind) {
    case Kind::DropWatch:
        return QStringLiteral("drop-watch:every=%1ms").arg(everyMs);
    case Kind::Error:
        return QStringLiteral("error:rate=%1,code=%2").arg(rate).arg(code) + filters;
    case Kind::Throttle:
        return QStringLiteral("throttle:rate=%1,retry-after=%2").arg(rate).arg(retryAfter) + filters;
    case Kind::Latency:
        return QStringLiteral("latency:ms=%1").arg(latencyMs);
    case Kind::Reset:
        return QStringLiteral("reset:rate=%1").arg(rate) + filters;
    case Kind::ExpireContinue:
        return QStringLiteral("expire-continue:rate=%1").arg(rate) + filters;
    }
    return {};
}

FaultInjector::FaultInjector(QObject *parent)
    : QObject(parent)
    , m_dropTimer(this)
{
    connect(&m_dropTimer, &QTimer::timeout, this, &FaultInjector::dropWatches);
}

void FaultInjector::setFaults(const QList<FaultSpec> &faults)
{
    m_faults = faults;
    m_firedBySpec.clear();
    int every = 0;
    for (const FaultSpec &f : faults)
        if (f.kind == FaultSpec::Kind::DropWatch)
            every = every == 0 ? f.everyMs : qMin(every, f.everyMs);
    if (every > 0)
        m_dropTimer.start(every);
    else
        m_dropTimer.stop();
}

void FaultInjector::addFault(const FaultSpec &fault)
{
    QList<FaultSpec> all = m_faults;
    all << fault;
    setFaults(all);
}

int FaultInjector::latencyMs() const
{
    int ms = 0;
    for (const FaultSpec &f : m_faults)
        if (f.kind == FaultSpec::Kind::Latency)
            ms += f.latencyMs;
    return ms;
}

bool FaultInjector::fires(int i, const FaultRequest &r) const
{
    const FaultSpec &f = m_faults.at(i);
    if ((!f.verb.isEmpty() && f.verb != r.verb) || (!f.resource.isEmpty() && f.resource != r.resource)
        || (!f.name.isEmpty() && f.name != r.name) || (!f.user.isEmpty() && f.user != r.user)
        || (!f.agent.isEmpty() && !r.userAgent.startsWith(f.agent)))
        return false;
    if (f.count > 0 && m_firedBySpec.value(i) >= f.count)
        return false;
    if (m_random.generateDouble() >= f.rate)
        return false;
    ++m_firedBySpec[i];
    ++m_fired[int(f.kind)];
    return true;
}

std::optional<Status> FaultInjector::drawFailure(const FaultRequest &request) const
{
    for (int i = 0; i < m_faults.size(); ++i) {
        const FaultSpec &f = m_faults.at(i);
        if (f.kind != FaultSpec::Kind::Error && f.kind != FaultSpec::Kind::Throttle)
            continue;
        if (!fires(i, request))
            continue;
        if (f.kind == FaultSpec::Kind::Throttle)
            return Status::tooManyRequests(
                QStringLiteral("Too many requests, please try again later. (injected fault)"), f.retryAfter);
        const QString msg = QStringLiteral("injected fault");
        if (f.code == 500)
            return Status::internalError(msg);
        if (f.code == 409 && !request.name.isEmpty())
            return conflict(request);
        return Status(f.code, Status::reasonForCode(f.code), msg);
    }
    return std::nullopt;
}

bool FaultInjector::draw(FaultSpec::Kind kind, const FaultRequest &request) const
{
    for (int i = 0; i < m_faults.size(); ++i)
        if (m_faults.at(i).kind == kind && fires(i, request))
            return true;
    return false;
}

} // namespace opbench::apiserver

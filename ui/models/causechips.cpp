// SPDX-License-Identifier: Apache-2.0
#include "ui/models/causechips.h"

#include "ui/widgets/palette.h"

#include <QObject>

#include <algorithm>

namespace opbench::ui {

namespace {

/// "MyApplication/default/web" from the GVK string "MyApplication.v1.example.com" and the key
/// ("MyApplication/web" when the key is in namespace `ns`).
QString objectRef(const Cause &c, const QString &ns)
{
    // GroupVersionKind::toString() ("Deployment.v1.apps"); also the Go form "apps/v1, Kind=Deployment".
    const qsizetype eq = c.sourceGvk.indexOf(QLatin1String("Kind="));
    const QString kind = eq >= 0 ? c.sourceGvk.mid(eq + 5) : c.sourceGvk.section(u'.', 0, 0);
    const QString key
        = !ns.isEmpty() && c.sourceKey.startsWith(ns + u'/') ? c.sourceKey.mid(ns.size() + 1) : c.sourceKey;
    return kind.isEmpty() ? key : kind + u'/' + key;
}

QString seconds(Clock::Duration d)
{
    const double ms = std::chrono::duration<double, std::milli>(d).count();
    return ms >= 1000.0 ? QString::number(ms / 1000.0, 'g', 3) + u's'
                        : QString::number(ms, 'g', 3) + QLatin1String("ms");
}

QString withRv(QString text, const Cause &c)
{
    if (!c.resourceVersion.isEmpty())
        text += QLatin1String(" rv ") + c.resourceVersion;
    return text;
}

} // namespace

QString causeChipText(const Cause &c, const QString &ns)
{
    switch (c.kind) {
    case Cause::Kind::WatchEvent:
        return withRv(QLatin1String("watch ") + Cause::eventName(c.event) + u' ' + objectRef(c, ns), c);
    case Cause::Kind::OwnerMapping:
        return QStringLiteral("owner \u2190 ") + objectRef(c, ns);
    case Cause::Kind::InitialList:
        return QLatin1String("list ") + objectRef(c, ns);
    case Cause::Kind::RequeueAfter:
        return QLatin1String("after ") + seconds(c.delay);
    case Cause::Kind::RateLimitedRetry:
        if (c.isRequestedRequeue())
            return QLatin1String("requeue ") + QString::number(c.attempt);
        return QLatin1String("retry ") + QString::number(c.attempt) + QLatin1String(" (error)");
    case Cause::Kind::Manual:
        return QStringLiteral("manual");
    case Cause::Kind::Unspecified:
        break;
    }
    return QStringLiteral("unspecified");
}

QColor causeChipColour(const Cause &c)
{
    switch (c.kind) {
    case Cause::Kind::RateLimitedRetry:
        return c.isRequestedRequeue() ? resultColour(ResultColour::RequeueAfter)
                                      : resultColour(ResultColour::RateLimited);
    case Cause::Kind::RequeueAfter:
        return resultColour(ResultColour::RequeueAfter);
    case Cause::Kind::Manual:
        return resultColour(ResultColour::Paused);
    default:
        return QColor(0x54, 0x6e, 0x7a);
    }
}

namespace {
/// The distinct chip labels in arrival order, each with how often it came and its colour.
struct Chip
{
    QString text;
    int times = 0;
    QColor colour;
};

QList<Chip> distinctChips(const CauseList &causes, const QString &ns)
{
    QList<Chip> out;
    for (const Cause &c : causes) {
        const QString text = causeChipText(c, ns);
        auto it = std::find_if(out.begin(), out.end(), [&text](const Chip &x) { return x.text == text; });
        if (it != out.end())
            ++it->times;
        else
            out.append({text, 1, causeChipColour(c)});
    }
    return out;
}
} // namespace

QStringList causeChips(const CauseList &causes, const QString &ns)
{
    QStringList out;
    // Causes that read the same (the queue merged them) are one chip: "owner ← Deployment/web ×3".
    for (const Chip &c : distinctChips(causes, ns))
        out.append(c.times > 1 ? QStringLiteral("%1 \u00d7%2").arg(c.text).arg(c.times) : c.text);
    if (causes.dropped() > 0)
        out.append(QObject::tr("+%1 more").arg(causes.dropped()));
    return out;
}

QVariantList causeChipColours(const CauseList &causes, const QString &ns)
{
    QVariantList out;
    for (const Chip &c : distinctChips(causes, ns))
        out.append(c.colour);
    if (causes.dropped() > 0)
        out.append(QColor(0x75, 0x75, 0x75));
    return out;
}

QString causeFullText(const CauseList &causes)
{
    QStringList lines;
    for (const Cause &c : causes)
        lines.append(c.describe());
    if (causes.dropped() > 0)
        lines.append(QObject::tr("… and %1 more (merged while the key waited)").arg(causes.dropped()));
    return lines.join(u'\n');
}

} // namespace opbench::ui

// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/webhookbreakpoint.h"

#include "engine/api/status.h"

#include <QStringList>

namespace opbench {

namespace {

const QString kUsage
    = QStringLiteral("expected \"webhook [PATH|WORD|any] [op=OPERATION] [name=[NS/]NAME] [kind=KIND]\", e.g. "
                     "\"webhook /validate-example-com-v1alpha1-myapplication\" or \"webhook validate op=CREATE\"");

bool knownOperation(const QString &op)
{
    for (const char *known : {"CREATE", "UPDATE", "DELETE", "CONNECT", "CONVERT"})
        if (op == QLatin1String(known))
            return true;
    return false;
}

} // namespace

bool WebhookBreakpoint::isWebhookSpec(const QString &text)
{
    const QString first = text.simplified().section(u' ', 0, 0);
    return first.compare(QLatin1String("webhook"), Qt::CaseInsensitive) == 0;
}

Expected<WebhookBreakpoint> WebhookBreakpoint::parse(const QString &text)
{
    const QStringList words = text.simplified().split(u' ', Qt::SkipEmptyParts);
    if (words.isEmpty() || !isWebhookSpec(text))
        return Status::badRequest(QStringLiteral("webhook breakpoint \"%1\": %2").arg(text, kUsage));
    WebhookBreakpoint b;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const QString &w = words.at(i);
        const qsizetype eq = w.indexOf(u'=');
        const QString name = eq > 0 ? w.left(eq).toLower() : QString();
        const QString value = eq > 0 ? w.mid(eq + 1) : QString();
        if (eq > 0 && value.isEmpty())
            return Status::badRequest(
                QStringLiteral("webhook breakpoint \"%1\": \"%2\" has no value; %3").arg(text, w, kUsage));
        if (name == QLatin1String("op") || name == QLatin1String("operation")) {
            b.operation = value.toUpper();
            if (!knownOperation(b.operation))
                return Status::badRequest(QStringLiteral("webhook breakpoint \"%1\": unknown operation \"%2\" "
                                                         "(CREATE, UPDATE, DELETE, CONNECT or CONVERT)")
                                              .arg(text, value));
        } else if (name == QLatin1String("name") || name == QLatin1String("object")) {
            b.object = value;
        } else if (name == QLatin1String("kind")) {
            b.kind = value;
        } else if (eq < 0 && i == 1) {
            b.target
                = w.compare(QLatin1String("any"), Qt::CaseInsensitive) == 0 || w == QLatin1String("*") ? QString() : w;
        } else {
            return Status::badRequest(
                QStringLiteral("webhook breakpoint \"%1\": cannot read \"%2\"; %3").arg(text, w, kUsage));
        }
    }
    return b;
}

QString WebhookBreakpoint::describe() const
{
    QString out = QStringLiteral("webhook ") + (target.isEmpty() ? QStringLiteral("any") : target);
    if (!operation.isEmpty())
        out += QStringLiteral(" op=") + operation;
    if (!object.isEmpty())
        out += QStringLiteral(" name=") + object;
    if (!kind.isEmpty())
        out += QStringLiteral(" kind=") + kind;
    return out;
}

bool WebhookBreakpoint::holds(const WebhookRequestInfo &r) const
{
    if (!enabled)
        return false;
    if (!target.isEmpty()) {
        const bool exact = target.startsWith(u'/');
        if (exact ? r.path != target : !r.path.contains(target, Qt::CaseInsensitive))
            return false;
    }
    if (!operation.isEmpty() && r.operation != operation)
        return false;
    if (!kind.isEmpty() && r.objectKind.compare(kind, Qt::CaseInsensitive) != 0)
        return false;
    if (!object.isEmpty()) {
        const QString key = r.namespaceName.isEmpty() ? r.name : r.namespaceName + u'/' + r.name;
        if (object != (object.contains(u'/') ? key : r.name))
            return false;
    }
    return true;
}

} // namespace opbench

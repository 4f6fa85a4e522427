// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/myapplication.h"

#include <QJsonArray>

namespace opbench::myapp {

const ResourceMapping &resourceMapping()
{
    static const ResourceMapping mapping = [] {
        ResourceMapping m;
        m.gvr = {kMyApplicationGvk.group, kMyApplicationGvk.version, QStringLiteral("myapplications")};
        m.kind = kMyApplicationGvk.kind;
        m.listKind = QStringLiteral("MyApplicationList");
        m.singular = QStringLiteral("myapplication");
        m.shortNames = {QStringLiteral("myapp")};
        m.subresources = {QStringLiteral("status")};
        return m;
    }();
    return mapping;
}

std::optional<Condition> MyApplication::condition(const QString &type) const
{
    return findCondition(at({"status", "conditions"}).toArray(), type);
}

bool MyApplication::statusMatches(const MyApplicationStatus &s) const
{
    if (!at({"status", "availableReplicas"}).isDouble() || availableReplicas() != s.availableReplicas
        || phase() != s.phase || observedGeneration() != s.observedGeneration)
        return false;
    const auto c = condition(QStringLiteral("Ready"));
    return c && c->status == s.ready.status && c->reason == s.ready.reason && c->message == s.ready.message
        && c->observedGeneration == s.ready.observedGeneration;
}

void MyApplication::setStatus(const MyApplicationStatus &s, const QDateTime &now)
{
    setAt({"status", "availableReplicas"}, s.availableReplicas);
    setAt({"status", "phase"}, s.phase);
    setAt({"status", "observedGeneration"}, s.observedGeneration);
    QJsonArray conditions = at({"status", "conditions"}).toArray();
    opbench::setCondition(conditions, s.ready, now);
    setAt({"status", "conditions"}, conditions);
}

} // namespace opbench::myapp

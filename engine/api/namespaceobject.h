// SPDX-License-Identifier: Apache-2.0
#pragma once
// NamespaceView (core/v1 Namespace; named so as not to clash with the keyword).

#include "engine/api/kind.h"
#include "engine/api/objectview.h"

namespace opbench {

class NamespaceView : public ObjectView
{
public:
    /// v1 Namespace, "namespaces", cluster-scoped.
    static const KindInfo &kindInfo()
    {
        static const KindInfo info(GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("Namespace")),
            QStringLiteral("namespaces"), false);
        return info;
    }

    /// A new v1 Namespace named `name`.
    explicit NamespaceView(const QString &name = {})
        : ObjectView(QStringLiteral("v1"), QStringLiteral("Namespace"))
    {
        if (!name.isEmpty())
            meta().setName(name);
    }
    explicit NamespaceView(const Object &object)
        : ObjectView(object)
    { }

    /// status.phase: "Active" (also when absent) or "Terminating".
    QString phase() const
    {
        const QString p = stringAt({"status", "phase"});
        return p.isEmpty() ? QStringLiteral("Active") : p;
    }
    void setPhase(const QString &phase) { setAt({"status", "phase"}, phase); }
    bool isTerminating() const { return phase() == QLatin1String("Terminating"); }
};

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#pragma once
// NamespaceView (core/v1 Namespace; named so as not to clash with the keyword).

#include "engine/api/objectview.h"

namespace opbench {

class NamespaceView : public ObjectView
{
public:
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

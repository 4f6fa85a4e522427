// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/myapplication.h"

namespace opbench::myapp {

const ResourceMapping &resourceMapping()
{
    static const ResourceMapping mapping = [] {
        const KindInfo &kind = MyApplication::kindInfo();
        ResourceMapping m;
        m.gvr = kind.gvr();
        m.kind = kind.gvk.kind;
        m.listKind = QStringLiteral("MyApplicationList");
        m.singular = QStringLiteral("myapplication");
        m.shortNames = {QStringLiteral("myapp")};
        m.subresources = {QStringLiteral("status")};
        return m;
    }();
    return mapping;
}

MyApplication::MyApplication(const QString &namespaceName, const QString &name)
    : MyApplication()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

bool MyApplication::setStatus(int availableReplicas, const QString &phase)
{
    const qint64 generation = this->generation();
    if (at({"status", "availableReplicas"}).isDouble() && this->availableReplicas() == availableReplicas
        && this->phase() == phase && observedGeneration() == generation)
        return false;
    setAt({"status", "availableReplicas"}, availableReplicas);
    setAt({"status", "phase"}, phase);
    setAt({"status", "observedGeneration"}, generation);
    return true;
}

} // namespace opbench::myapp

// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/patch.h"

#include <QJsonDocument>

namespace opbench {

QJsonObject createMergePatch(const QJsonObject &a, const QJsonObject &b)
{
    QJsonObject patch;
    for (auto it = a.begin(); it != a.end(); ++it)
        if (!b.contains(it.key()))
            patch.insert(it.key(), QJsonValue::Null);
    for (auto it = b.begin(); it != b.end(); ++it) {
        const QJsonValue old = a.value(it.key());
        if (old == it.value())
            continue;
        if (old.isObject() && it.value().isObject())
            patch.insert(it.key(), createMergePatch(old.toObject(), it.value().toObject()));
        else
            patch.insert(it.key(), it.value());
    }
    return patch;
}

Patch Patch::mergeFrom(const Object &original, const Object &modified, bool optimisticLock)
{
    QJsonObject p = createMergePatch(original.json(), modified.json());
    if (optimisticLock) {
        QJsonObject meta = p.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("resourceVersion"), original.resourceVersion());
        p.insert(QStringLiteral("metadata"), meta);
    }
    return Patch(PatchType::Merge, QJsonDocument(p).toJson(QJsonDocument::Compact));
}

Patch Patch::apply(const Object &object) { return Patch(PatchType::Apply, object.toJsonBytes()); }

Patch Patch::raw(PatchType type, QByteArray data) { return Patch(type, std::move(data)); }

bool Patch::isEmpty() const { return m_type == PatchType::Merge && m_data == "{}"; }

} // namespace opbench

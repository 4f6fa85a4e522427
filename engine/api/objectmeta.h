// SPDX-License-Identifier: Apache-2.0
#pragma once
// MetaEditor: reads and edits `metadata` of a JSON document in place (name, namespace, labels,
// annotations, ownerReferences, finalizers, …). Typed views use it so that every view edits
// metadata the same way; it never drops fields it does not know.

#include "engine/api/object.h"

#include <QJsonObject>

namespace opbench {

class MetaEditor
{
public:
    /// Edits `document` (the whole object, not its metadata) for as long as the editor lives.
    explicit MetaEditor(QJsonObject &document)
        : m_doc(document)
    { }

    QString name() const { return string("name"); }
    void setName(const QString &v) { setString("name", v); }
    QString generateName() const { return string("generateName"); }
    void setGenerateName(const QString &v) { setString("generateName", v); }
    QString namespaceName() const { return string("namespace"); }
    void setNamespace(const QString &v) { setString("namespace", v); }
    QString uid() const { return string("uid"); }
    QString resourceVersion() const { return string("resourceVersion"); }
    /// An empty value removes the field (an unconditional update).
    void setResourceVersion(const QString &v) { setString("resourceVersion", v); }
    qint64 generation() const;

    Labels labels() const { return stringMap("labels"); }
    /// Replaces all labels; an empty map removes the field.
    void setLabels(const Labels &labels) { setStringMap("labels", labels); }
    void setLabel(const QString &key, const QString &value);
    void removeLabel(const QString &key);

    Labels annotations() const { return stringMap("annotations"); }
    void setAnnotations(const Labels &annotations) { setStringMap("annotations", annotations); }
    void setAnnotation(const QString &key, const QString &value);
    void removeAnnotation(const QString &key);

    QList<OwnerReference> ownerReferences() const;
    void setOwnerReferences(const QList<OwnerReference> &refs);
    /// Adds `ref`, replacing a reference with the same uid. Returns true when something changed.
    bool upsertOwnerReference(const OwnerReference &ref);
    /// Makes `owner` this object's controller (controller and blockOwnerDeletion true). Returns
    /// false, changing nothing, when another uid already holds controller=true.
    bool setControllerReference(const Object &owner);
    bool removeOwnerReference(const QString &uid);

    QStringList finalizers() const;
    bool hasFinalizer(const QString &f) const { return finalizers().contains(f); }
    /// Returns true when added (false when already present).
    bool addFinalizer(const QString &f);
    /// Returns true when removed.
    bool removeFinalizer(const QString &f);

private:
    QJsonObject meta() const;
    void setMeta(const QJsonObject &m);
    QString string(const char *key) const;
    void setString(const char *key, const QString &v);
    Labels stringMap(const char *key) const;
    void setStringMap(const char *key, const Labels &map);

    QJsonObject &m_doc;
};

} // namespace opbench

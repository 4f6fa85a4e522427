// SPDX-License-Identifier: Apache-2.0
#include "engine/api/objectmeta.h"

#include <QJsonArray>

namespace opbench {

namespace {
const QLatin1String kMetadata("metadata");
}

QJsonObject MetaEditor::meta() const { return m_doc.value(kMetadata).toObject(); }

void MetaEditor::setMeta(const QJsonObject &m) { m_doc.insert(kMetadata, m); }

QString MetaEditor::string(const char *key) const { return meta().value(QLatin1String(key)).toString(); }

void MetaEditor::setString(const char *key, const QString &v)
{
    QJsonObject m = meta();
    if (v.isEmpty())
        m.remove(QLatin1String(key));
    else
        m.insert(QLatin1String(key), v);
    setMeta(m);
}

qint64 MetaEditor::generation() const { return meta().value(QLatin1String("generation")).toInteger(); }

Labels MetaEditor::stringMap(const char *key) const
{
    Labels out;
    const QJsonObject o = meta().value(QLatin1String(key)).toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

void MetaEditor::setStringMap(const char *key, const Labels &map)
{
    QJsonObject m = meta();
    if (map.isEmpty()) {
        m.remove(QLatin1String(key));
    } else {
        QJsonObject o;
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            o.insert(it.key(), it.value());
        m.insert(QLatin1String(key), o);
    }
    setMeta(m);
}

void MetaEditor::setLabel(const QString &key, const QString &value)
{
    Labels l = labels();
    l.insert(key, value);
    setLabels(l);
}

void MetaEditor::removeLabel(const QString &key)
{
    Labels l = labels();
    if (l.remove(key))
        setLabels(l);
}

void MetaEditor::setAnnotation(const QString &key, const QString &value)
{
    Labels a = annotations();
    a.insert(key, value);
    setAnnotations(a);
}

void MetaEditor::removeAnnotation(const QString &key)
{
    Labels a = annotations();
    if (a.remove(key))
        setAnnotations(a);
}

QList<OwnerReference> MetaEditor::ownerReferences() const
{
    QList<OwnerReference> out;
    for (const QJsonValue &v : meta().value(QLatin1String("ownerReferences")).toArray())
        out << OwnerReference::fromJson(v.toObject());
    return out;
}

void MetaEditor::setOwnerReferences(const QList<OwnerReference> &refs)
{
    QJsonObject m = meta();
    if (refs.isEmpty()) {
        m.remove(QLatin1String("ownerReferences"));
    } else {
        // Keep fields of existing entries we do not model (matched by uid).
        const QJsonArray old = m.value(QLatin1String("ownerReferences")).toArray();
        QJsonArray arr;
        for (const OwnerReference &r : refs) {
            QJsonObject o;
            for (const QJsonValue &v : old)
                if (v.toObject().value(QLatin1String("uid")).toString() == r.uid)
                    o = v.toObject();
            const QJsonObject fresh = r.toJson();
            o.remove(QLatin1String("controller"));
            o.remove(QLatin1String("blockOwnerDeletion"));
            for (auto it = fresh.begin(); it != fresh.end(); ++it)
                o.insert(it.key(), it.value());
            arr.append(o);
        }
        m.insert(QLatin1String("ownerReferences"), arr);
    }
    setMeta(m);
}

bool MetaEditor::upsertOwnerReference(const OwnerReference &ref)
{
    QList<OwnerReference> refs = ownerReferences();
    for (OwnerReference &r : refs) {
        if (r.uid == ref.uid) {
            if (r == ref)
                return false;
            r = ref;
            setOwnerReferences(refs);
            return true;
        }
    }
    refs << ref;
    setOwnerReferences(refs);
    return true;
}

bool MetaEditor::setControllerReference(const Object &owner)
{
    for (const OwnerReference &r : ownerReferences())
        if (r.controller && r.uid != owner.uid())
            return false;
    upsertOwnerReference({owner.apiVersion(), owner.kind(), owner.name(), owner.uid(), true, true});
    return true;
}

bool MetaEditor::removeOwnerReference(const QString &uid)
{
    QList<OwnerReference> refs = ownerReferences();
    const auto removed = refs.removeIf([&](const OwnerReference &r) { return r.uid == uid; });
    if (removed)
        setOwnerReferences(refs);
    return removed > 0;
}

QStringList MetaEditor::finalizers() const
{
    QStringList out;
    for (const QJsonValue &v : meta().value(QLatin1String("finalizers")).toArray())
        out << v.toString();
    return out;
}

bool MetaEditor::addFinalizer(const QString &f)
{
    QStringList fs = finalizers();
    if (fs.contains(f))
        return false;
    fs << f;
    QJsonObject m = meta();
    m.insert(QLatin1String("finalizers"), QJsonArray::fromStringList(fs));
    setMeta(m);
    return true;
}

bool MetaEditor::removeFinalizer(const QString &f)
{
    QStringList fs = finalizers();
    if (!fs.removeAll(f))
        return false;
    QJsonObject m = meta();
    if (fs.isEmpty())
        m.remove(QLatin1String("finalizers"));
    else
        m.insert(QLatin1String("finalizers"), QJsonArray::fromStringList(fs));
    setMeta(m);
    return true;
}

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/jsondiff.h"

#include <QJsonArray>
#include <QSet>

namespace opbench {

namespace {

QString join(const QString &prefix, const QString &key) { return prefix.isEmpty() ? key : prefix + u'.' + key; }

void diffValue(const QString &path, const QJsonValue &a, const QJsonValue &b, QList<DiffEntry> &out);

void diffObject(const QString &path, const QJsonObject &a, const QJsonObject &b, QList<DiffEntry> &out)
{
    QStringList keys = a.keys();
    for (const QString &k : b.keys())
        if (!a.contains(k))
            keys.append(k);
    keys.sort();
    for (const QString &k : std::as_const(keys)) {
        const QString p = join(path, k);
        if (p == QLatin1String("metadata.managedFields"))
            continue;
        diffValue(p, a.value(k), b.value(k), out);
    }
}

void diffValue(const QString &path, const QJsonValue &a, const QJsonValue &b, QList<DiffEntry> &out)
{
    if (a == b)
        return;
    // Objects (also one that appeared or disappeared) are reported leaf by leaf.
    const bool objects = (a.isObject() || a.isUndefined()) && (b.isObject() || b.isUndefined());
    if (objects && !(a.toObject().isEmpty() && b.toObject().isEmpty())) {
        diffObject(path, a.toObject(), b.toObject(), out);
        return;
    }
    if (a.isArray() && b.isArray() && a.toArray().size() == b.toArray().size()) {
        const QJsonArray aa = a.toArray();
        const QJsonArray bb = b.toArray();
        for (qsizetype i = 0; i < aa.size(); ++i)
            diffValue(path + u'[' + QString::number(i) + u']', aa.at(i), bb.at(i), out);
        return;
    }
    out.append(DiffEntry{path, a, b});
}

} // namespace

QJsonObject DiffEntry::toJson() const
{
    QJsonObject o{{QStringLiteral("path"), path}};
    if (!oldValue.isUndefined())
        o.insert(QStringLiteral("old"), oldValue);
    if (!newValue.isUndefined())
        o.insert(QStringLiteral("new"), newValue);
    return o;
}

QList<DiffEntry> jsonDiff(const QJsonObject &before, const QJsonObject &after)
{
    QList<DiffEntry> out;
    diffObject(QString(), before, after, out);
    return out;
}

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/jsonpatch.h"

#include <QJsonObject>

namespace opbench {

namespace {

QJsonObject op(const char *name, const QString &path, const QJsonValue &value = QJsonValue::Undefined)
{
    QJsonObject o{{QStringLiteral("op"), QLatin1String(name)}, {QStringLiteral("path"), path}};
    if (!value.isUndefined())
        o.insert(QStringLiteral("value"), value);
    return o;
}

void diff(const QJsonValue &before, const QJsonValue &after, const QString &path, QJsonArray &out)
{
    if (before == after)
        return;
    if (before.isObject() && after.isObject()) {
        const QJsonObject a = before.toObject(), b = after.toObject();
        for (auto it = a.begin(); it != a.end(); ++it) {
            const QString child = path + u'/' + escapeJsonPointer(it.key());
            if (!b.contains(it.key()))
                out.append(op("remove", child));
            else
                diff(it.value(), b.value(it.key()), child, out);
        }
        for (auto it = b.begin(); it != b.end(); ++it)
            if (!a.contains(it.key()))
                out.append(op("add", path + u'/' + escapeJsonPointer(it.key()), it.value()));
        return;
    }
    if (before.isArray() && after.isArray() && before.toArray().size() == after.toArray().size()) {
        const QJsonArray a = before.toArray(), b = after.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            diff(a.at(i), b.at(i), path + u'/' + QString::number(i), out);
        return;
    }
    out.append(op("replace", path, after));
}

} // namespace

QString escapeJsonPointer(const QString &token)
{
    QString out = token;
    out.replace(u'~', QLatin1String("~0"));
    out.replace(u'/', QLatin1String("~1"));
    return out;
}

QJsonArray createJsonPatch(const QJsonValue &before, const QJsonValue &after)
{
    QJsonArray out;
    diff(before, after, QString(), out);
    return out;
}

} // namespace opbench

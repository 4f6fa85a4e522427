// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/secret.h"

namespace opbench {

namespace {
QJsonValue encoded(const QByteArray &v) { return QString::fromLatin1(v.toBase64()); }
QByteArray decoded(const QJsonValue &v) { return QByteArray::fromBase64(v.toString().toLatin1()); }
} // namespace

const KindInfo &Secret::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("Secret")), QStringLiteral("secrets"));
    return info;
}

Secret::Secret()
    : ObjectView(kindInfo().apiVersion(), kindInfo().gvk.kind)
{ }

Secret::Secret(const QString &namespaceName, const QString &name)
    : Secret()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

QString Secret::type() const
{
    const QString t = stringAt({"type"});
    return t.isEmpty() ? QStringLiteral("Opaque") : t;
}

QMap<QString, QByteArray> Secret::data() const
{
    QMap<QString, QByteArray> out;
    const QJsonObject d = at({"data"}).toObject();
    for (auto it = d.begin(); it != d.end(); ++it)
        out.insert(it.key(), decoded(it.value()));
    return out;
}

void Secret::setData(const QMap<QString, QByteArray> &data)
{
    QJsonObject d;
    for (auto it = data.begin(); it != data.end(); ++it)
        d.insert(it.key(), encoded(it.value()));
    setAt({"data"}, d.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(d));
}

void Secret::setStringData(const QMap<QString, QString> &data)
{
    QMap<QString, QByteArray> bytes;
    for (auto it = data.begin(); it != data.end(); ++it)
        bytes.insert(it.key(), it.value().toUtf8());
    setData(bytes);
}

QByteArray Secret::value(const QString &key) const { return decoded(at({"data"}).toObject().value(key)); }

void Secret::setValue(const QString &key, const QByteArray &value)
{
    QJsonObject d = at({"data"}).toObject();
    d.insert(key, encoded(value));
    setAt({"data"}, d);
}

void Secret::remove(const QString &key)
{
    QJsonObject d = at({"data"}).toObject();
    d.remove(key);
    setAt({"data"}, d.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(d));
}

} // namespace opbench

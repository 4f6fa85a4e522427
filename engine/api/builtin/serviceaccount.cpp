// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/serviceaccount.h"

#include <QJsonArray>

namespace opbench {

const KindInfo &ServiceAccount::kindInfo()
{
    static const KindInfo info(GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("ServiceAccount")),
        QStringLiteral("serviceaccounts"));
    return info;
}

ServiceAccount::ServiceAccount()
    : ObjectView(kindInfo().apiVersion(), kindInfo().gvk.kind)
{ }

ServiceAccount::ServiceAccount(const QString &namespaceName, const QString &name)
    : ServiceAccount()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

std::optional<bool> ServiceAccount::automountServiceAccountToken() const
{
    const QJsonValue v = at({"automountServiceAccountToken"});
    return v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
}

QStringList ServiceAccount::imagePullSecrets() const
{
    QStringList out;
    for (const auto &v : at({"imagePullSecrets"}).toArray())
        out << v.toObject().value(QLatin1String("name")).toString();
    return out;
}

void ServiceAccount::setImagePullSecrets(const QStringList &names)
{
    QJsonArray a;
    for (const QString &n : names)
        a.append(QJsonObject{{QStringLiteral("name"), n}});
    setAt({"imagePullSecrets"}, a.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(a));
}

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/webhookconfig.h"

#include "engine/api/validation.h"
#include "engine/apiserver/validation/defaults.h"

#include <QJsonArray>
#include <QSet>
#include <QUrl>

namespace opbench::apiserver {

namespace {

const QString kGroup = QStringLiteral("admissionregistration.k8s.io");

QString goStrings(const QJsonArray &values)
{
    QStringList parts;
    for (const QJsonValue v : values)
        parts << fielderror::quote(v.toString());
    return QStringLiteral("[]string{") + parts.join(QStringLiteral(", ")) + u'}';
}

void checkEnum(
    const QJsonObject &hook, const char *key, const QStringList &allowed, const QString &at, QList<StatusCause> &causes)
{
    const QJsonValue v = hook.value(QLatin1String(key));
    if (!defaults::isUnset(v) && !allowed.contains(v.toString()))
        causes << fielderror::notSupported(at + u'.' + QLatin1String(key), v.toString(), allowed);
}

void validateUrl(const QString &raw, const QString &at, QList<StatusCause> &causes)
{
    const QUrl url(raw, QUrl::StrictMode);
    if (!url.isValid()) {
        causes << fielderror::invalid(at, raw, QStringLiteral("url must be a valid URL: ") + url.errorString());
        return;
    }
    if (url.scheme() != QLatin1String("https"))
        causes << fielderror::invalid(at, url.scheme(), QStringLiteral("'https' is the only allowed URL scheme"));
    if (url.host().isEmpty())
        causes << fielderror::invalid(at, url.host(), QStringLiteral("host must be specified"));
    if (!url.userInfo().isEmpty())
        causes << fielderror::invalid(
            at, url.userInfo(), QStringLiteral("user information is not permitted in the URL"));
    if (url.hasFragment())
        causes << fielderror::invalid(at, url.fragment(), QStringLiteral("fragments are not permitted in the URL"));
    if (url.hasQuery())
        causes << fielderror::invalid(at, url.query(), QStringLiteral("query parameters are not permitted in the URL"));
}

void validateService(const QJsonObject &service, const QString &at, QList<StatusCause> &causes)
{
    if (service.value(QLatin1String("name")).toString().isEmpty())
        causes << fielderror::required(at + QStringLiteral(".name"), QStringLiteral("service name is required"));
    if (service.value(QLatin1String("namespace")).toString().isEmpty())
        causes << fielderror::required(
            at + QStringLiteral(".namespace"), QStringLiteral("service namespace is required"));
    const QString path = service.value(QLatin1String("path")).toString();
    if (!path.isEmpty() && !path.startsWith(u'/'))
        causes << fielderror::invalid(at + QStringLiteral(".path"), path, QStringLiteral("must start with a '/'"));
    const qint64 port = service.value(QLatin1String("port")).toInteger(443);
    if (port < 1 || port > 65535)
        causes << fielderror::invalidRaw(at + QStringLiteral(".port"), QString::number(port),
            QStringLiteral("port is not valid: must be between 1 and 65535, inclusive"));
}

void validateRule(const QJsonObject &rule, const QString &at, QList<StatusCause> &causes)
{
    const QStringList ops{QStringLiteral("*"), QStringLiteral("CONNECT"), QStringLiteral("CREATE"),
        QStringLiteral("DELETE"), QStringLiteral("UPDATE")};
    const QJsonArray operations = rule.value(QLatin1String("operations")).toArray();
    if (operations.isEmpty())
        causes << fielderror::required(at + QStringLiteral(".operations"));
    for (qsizetype i = 0; i < operations.size(); ++i)
        if (!ops.contains(operations.at(i).toString()))
            causes << fielderror::notSupported(
                QStringLiteral("%1.operations[%2]").arg(at).arg(i), operations.at(i).toString(), ops);
    for (const char *key : {"apiGroups", "apiVersions", "resources"})
        if (rule.value(QLatin1String(key)).toArray().isEmpty())
            causes << fielderror::required(at + u'.' + QLatin1String(key));
    const QStringList scopes{QStringLiteral("*"), QStringLiteral("Cluster"), QStringLiteral("Namespaced")};
    checkEnum(rule, "scope", scopes, at, causes);
}

void validateHook(const QJsonObject &hook, bool mutating, const QString &at, QList<StatusCause> &causes)
{
    const QString name = hook.value(QLatin1String("name")).toString();
    const QString nameAt = at + QStringLiteral(".name");
    if (name.isEmpty()) {
        causes << fielderror::required(nameAt);
    } else if (const QStringList problems = isDns1123Subdomain(name); !problems.isEmpty()) {
        causes << fielderror::invalid(nameAt, name, problems.join(u','));
    } else if (name.split(u'.').size() < 3) {
        causes << fielderror::invalid(
            nameAt, name, QStringLiteral("should be a domain with at least three segments separated by dots"));
    }
    const QJsonArray rules = hook.value(QLatin1String("rules")).toArray();
    for (qsizetype i = 0; i < rules.size(); ++i)
        validateRule(rules.at(i).toObject(), QStringLiteral("%1.rules[%2]").arg(at).arg(i), causes);
    checkEnum(hook, "failurePolicy", {QStringLiteral("Fail"), QStringLiteral("Ignore")}, at, causes);
    checkEnum(hook, "matchPolicy", {QStringLiteral("Equivalent"), QStringLiteral("Exact")}, at, causes);
    const QStringList sideEffects{QStringLiteral("None"), QStringLiteral("NoneOnDryRun")};
    if (defaults::isUnset(hook.value(QLatin1String("sideEffects"))))
        causes << fielderror::required(
            at + QStringLiteral(".sideEffects"), QStringLiteral("must specify one of None, NoneOnDryRun"));
    else
        checkEnum(hook, "sideEffects", sideEffects, at, causes);
    const QJsonValue timeout = hook.value(QLatin1String("timeoutSeconds"));
    if (timeout.isDouble() && (timeout.toInteger() < 1 || timeout.toInteger() > 30))
        causes << fielderror::invalidRaw(at + QStringLiteral(".timeoutSeconds"), QString::number(timeout.toInteger()),
            QStringLiteral("the timeout value must be between 1 and 30 seconds"));
    if (mutating)
        checkEnum(hook, "reinvocationPolicy", {QStringLiteral("IfNeeded"), QStringLiteral("Never")}, at, causes);
    validateWebhookClientConfig(
        hook.value(QLatin1String("clientConfig")).toObject(), at + QStringLiteral(".clientConfig"), causes);
}

} // namespace

void validateWebhookClientConfig(const QJsonObject &cc, const QString &at, QList<StatusCause> &causes)
{
    const bool hasUrl = !defaults::isUnset(cc.value(QLatin1String("url")));
    const bool hasService = cc.value(QLatin1String("service")).isObject();
    if (hasUrl == hasService)
        causes << fielderror::required(at, QStringLiteral("exactly one of url or service is required"));
    else if (hasUrl)
        validateUrl(cc.value(QLatin1String("url")).toString(), at + QStringLiteral(".url"), causes);
    else
        validateService(cc.value(QLatin1String("service")).toObject(), at + QStringLiteral(".service"), causes);
}

void validateWebhookReviewVersions(
    const QJsonArray &versions, const QString &at, const QString &requiredDetail, QList<StatusCause> &causes)
{
    if (versions.isEmpty()) {
        causes << fielderror::required(at, requiredDetail);
        return;
    }
    QSet<QString> seen;
    bool accepted = false;
    for (qsizetype i = 0; i < versions.size(); ++i) {
        const QString v = versions.at(i).toString();
        const QString vAt = QStringLiteral("%1[%2]").arg(at).arg(i);
        if (seen.contains(v)) {
            causes << fielderror::invalid(vAt, v, QStringLiteral("duplicate version"));
            continue;
        }
        seen.insert(v);
        for (const QString &problem : isDns1035Label(v))
            causes << fielderror::invalid(vAt, v, problem);
        accepted = accepted || v == QLatin1String("v1") || v == QLatin1String("v1beta1");
    }
    if (!accepted)
        causes << fielderror::invalidRaw(
            at, goStrings(versions), QStringLiteral("must include at least one of v1, v1beta1"));
}

bool isWebhookConfiguration(const ResourceType &type, bool *mutating)
{
    if (type.custom || type.gvr().group != kGroup)
        return false;
    const QString &r = type.gvr().resource;
    if (mutating)
        *mutating = r == QLatin1String("mutatingwebhookconfigurations");
    return r == QLatin1String("mutatingwebhookconfigurations") || r == QLatin1String("validatingwebhookconfigurations");
}

void defaultWebhookConfiguration(QJsonObject &configuration, bool mutating)
{
    using namespace defaults;
    editEach(configuration, QLatin1String("webhooks"), [mutating](QJsonObject &hook) {
        setDefault(hook, QLatin1String("failurePolicy"), QStringLiteral("Fail"));
        setDefault(hook, QLatin1String("matchPolicy"), QStringLiteral("Equivalent"));
        setDefault(hook, QLatin1String("namespaceSelector"), QJsonObject());
        setDefault(hook, QLatin1String("objectSelector"), QJsonObject());
        setDefault(hook, QLatin1String("timeoutSeconds"), 10);
        if (mutating)
            setDefault(hook, QLatin1String("reinvocationPolicy"), QStringLiteral("Never"));
        editEach(hook, QLatin1String("rules"),
            [](QJsonObject &rule) { setDefault(rule, QLatin1String("scope"), QStringLiteral("*")); });
        editIfPresent(hook, QLatin1String("clientConfig"), [](QJsonObject &cc) {
            editIfPresent(
                cc, QLatin1String("service"), [](QJsonObject &svc) { setDefault(svc, QLatin1String("port"), 443); });
        });
    });
}

QList<StatusCause> validateWebhookConfiguration(const QJsonObject &configuration, bool mutating)
{
    QList<StatusCause> causes;
    const QJsonArray hooks = configuration.value(QLatin1String("webhooks")).toArray();
    QSet<QString> names;
    for (qsizetype i = 0; i < hooks.size(); ++i) {
        const QJsonObject hook = hooks.at(i).toObject();
        const QString at = QStringLiteral("webhooks[%1]").arg(i);
        validateHook(hook, mutating, at, causes);
        validateWebhookReviewVersions(hook.value(QLatin1String("admissionReviewVersions")).toArray(),
            at + QStringLiteral(".admissionReviewVersions"), QStringLiteral("must specify one of v1, v1beta1"), causes);
        const QString name = hook.value(QLatin1String("name")).toString();
        if (!name.isEmpty() && names.contains(name))
            causes << StatusCause{QStringLiteral("FieldValueDuplicate"),
                QStringLiteral("Duplicate value: ") + fielderror::quote(name), at + QStringLiteral(".name")};
        names.insert(name);
    }
    return causes;
}

} // namespace opbench::apiserver

// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/builtinvalidation.h"

#include "engine/api/validation.h"
#include "engine/apiserver/validation/webhookconfig.h"

#include <QJsonArray>
#include <QSet>

namespace opbench::apiserver {

namespace {

QJsonObject sub(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toObject(); }

/// Go's %#v of a map[string]string (keys sorted, values quoted); nil when absent.
QString goStringMap(const QJsonValue &v)
{
    if (!v.isObject())
        return QStringLiteral("map[string]string(nil)");
    const QJsonObject m = v.toObject();
    QStringList parts;
    for (auto it = m.begin(); it != m.end(); ++it)
        parts.append(fielderror::quote(it.key()) + u':' + fielderror::quote(it.value().toString()));
    return QStringLiteral("map[string]string{") + parts.join(QStringLiteral(", ")) + u'}';
}

QString goStringSlice(const QJsonValue &v)
{
    if (!v.isArray())
        return QStringLiteral("[]string(nil)");
    QStringList parts;
    for (const QJsonValue &s : v.toArray())
        parts.append(fielderror::quote(s.toString()));
    return QStringLiteral("[]string{") + parts.join(QStringLiteral(", ")) + u'}';
}

bool requirementMatches(const QJsonObject &req, const QJsonObject &labels)
{
    const QString key = req.value(QLatin1String("key")).toString();
    const QString op = req.value(QLatin1String("operator")).toString();
    QStringList values;
    for (const QJsonValue &v : req.value(QLatin1String("values")).toArray())
        values.append(v.toString());
    const bool has = labels.contains(key);
    if (op == QLatin1String("In"))
        return has && values.contains(labels.value(key).toString());
    if (op == QLatin1String("NotIn"))
        return !has || !values.contains(labels.value(key).toString());
    if (op == QLatin1String("Exists"))
        return has;
    if (op == QLatin1String("DoesNotExist"))
        return !has;
    return false;
}

bool selectorMatches(const QJsonObject &selector, const QJsonObject &labels)
{
    const QJsonObject ml = sub(selector, "matchLabels");
    for (auto it = ml.begin(); it != ml.end(); ++it) {
        if (labels.value(it.key()) != it.value())
            return false;
    }
    for (const QJsonValue &r : selector.value(QLatin1String("matchExpressions")).toArray()) {
        if (!requirementMatches(r.toObject(), labels))
            return false;
    }
    return true;
}

bool isEmptySelector(const QJsonObject &selector)
{
    return sub(selector, "matchLabels").isEmpty()
        && selector.value(QLatin1String("matchExpressions")).toArray().isEmpty();
}

void validatePorts(
    const QJsonArray &ports, const QString &path, const char *field, QList<StatusCause> &causes, bool zeroIsMissing)
{
    for (qsizetype i = 0; i < ports.size(); ++i) {
        const QString at = QStringLiteral("%1[%2].%3").arg(path).arg(i).arg(QLatin1String(field));
        const QJsonValue v = ports.at(i).toObject().value(QLatin1String(field));
        const qint64 port = v.toInteger();
        if (zeroIsMissing && port == 0)
            causes.append(fielderror::required(at));
        else if (port < 1 || port > 65535)
            causes.append(fielderror::invalidRaw(
                at, QString::number(port), QStringLiteral("must be between 1 and 65535, inclusive")));
    }
}

void validatePodSpec(const QJsonObject &spec, const QString &path, QList<StatusCause> &causes)
{
    const QJsonArray containers = spec.value(QLatin1String("containers")).toArray();
    if (containers.isEmpty()) {
        causes.append(fielderror::required(path + QStringLiteral(".containers")));
        return;
    }
    QSet<QString> names;
    for (qsizetype i = 0; i < containers.size(); ++i) {
        const QJsonObject c = containers.at(i).toObject();
        const QString at = QStringLiteral("%1.containers[%2]").arg(path).arg(i);
        const QString name = c.value(QLatin1String("name")).toString();
        if (name.isEmpty())
            causes.append(fielderror::required(at + QStringLiteral(".name")));
        else if (names.contains(name))
            causes.append(StatusCause{QStringLiteral("FieldValueDuplicate"),
                QStringLiteral("Duplicate value: ") + fielderror::quote(name), at + QStringLiteral(".name")});
        names.insert(name);
        if (c.value(QLatin1String("image")).toString().isEmpty())
            causes.append(fielderror::required(at + QStringLiteral(".image")));
        validatePorts(
            c.value(QLatin1String("ports")).toArray(), at + QStringLiteral(".ports"), "containerPort", causes, true);
    }
}

bool isWorkload(const ResourceType &type)
{
    if (type.custom || type.gvr().group != QLatin1String("apps"))
        return false;
    const QString r = type.gvr().resource;
    return r == QLatin1String("deployments") || r == QLatin1String("replicasets") || r == QLatin1String("statefulsets")
        || r == QLatin1String("daemonsets");
}

void validateWorkload(
    const ResourceType &type, const QJsonObject &object, const QJsonObject &old, QList<StatusCause> &causes)
{
    const QJsonObject spec = sub(object, "spec");
    const QString resource = type.gvr().resource;
    const QJsonValue replicas = spec.value(QLatin1String("replicas"));
    if (resource != QLatin1String("daemonsets") && replicas.isDouble() && replicas.toInteger() < 0)
        causes.append(fielderror::invalidRaw(QStringLiteral("spec.replicas"), QString::number(replicas.toInteger()),
            QStringLiteral("must be greater than or equal to 0")));
    const QJsonObject tmpl = sub(spec, "template");
    const QJsonObject labels = sub(sub(tmpl, "metadata"), "labels");
    if (!spec.value(QLatin1String("selector")).isObject()) {
        causes.append(fielderror::required(QStringLiteral("spec.selector")));
    } else {
        const QJsonObject selector = sub(spec, "selector");
        if (isEmptySelector(selector)) {
            const QString what
                = resource == QLatin1String("deployments") ? QStringLiteral("deployment") : type.kind().toLower();
            causes.append(fielderror::invalidRaw(QStringLiteral("spec.selector"), goLabelSelector(selector),
                QStringLiteral("empty selector is invalid for ") + what));
        } else if (!selectorMatches(selector, labels)) {
            causes.append(fielderror::invalidRaw(QStringLiteral("spec.template.metadata.labels"),
                goStringMap(labels.isEmpty() ? QJsonValue() : QJsonValue(labels)),
                QStringLiteral("`selector` does not match template `labels`")));
        }
        if (!old.isEmpty()) {
            const QJsonValue before = sub(old, "spec").value(QLatin1String("selector"));
            if (before.isObject() && before.toObject() != selector)
                causes.append(fielderror::invalidRaw(
                    QStringLiteral("spec.selector"), goLabelSelector(selector), QStringLiteral("field is immutable")));
        }
    }
    validatePodSpec(sub(tmpl, "spec"), QStringLiteral("spec.template.spec"), causes);
}

void validateService(const QJsonObject &object, const QJsonObject &old, QList<StatusCause> &causes)
{
    const QJsonObject spec = sub(object, "spec");
    if (spec.value(QLatin1String("type")).toString() != QLatin1String("ExternalName"))
        validatePorts(
            spec.value(QLatin1String("ports")).toArray(), QStringLiteral("spec.ports"), "port", causes, false);
    if (old.isEmpty())
        return;
    const QString before = sub(old, "spec").value(QLatin1String("clusterIP")).toString();
    const QString now = spec.value(QLatin1String("clusterIP")).toString();
    if (!before.isEmpty() && !now.isEmpty() && before != now)
        causes.append(fielderror::invalid(QStringLiteral("spec.clusterIP"), now, QStringLiteral("field is immutable")));
}

void validateImmutableData(const QJsonObject &object, const QJsonObject &old, QList<StatusCause> &causes)
{
    if (old.isEmpty() || !old.value(QLatin1String("immutable")).toBool())
        return;
    const QString why = QStringLiteral("field is immutable when `immutable` is set");
    for (const char *field : {"data", "binaryData"}) {
        if (object.value(QLatin1String(field)).toObject() != old.value(QLatin1String(field)).toObject())
            causes.append(fielderror::forbidden(QString::fromLatin1(field), why));
    }
    if (!object.value(QLatin1String("immutable")).toBool())
        causes.append(fielderror::forbidden(QStringLiteral("immutable"), why));
}

} // namespace

QString goLabelSelector(const QJsonObject &selector)
{
    QString expressions = QStringLiteral("[]v1.LabelSelectorRequirement(nil)");
    if (selector.value(QLatin1String("matchExpressions")).isArray()) {
        QStringList reqs;
        for (const QJsonValue &r : selector.value(QLatin1String("matchExpressions")).toArray()) {
            const QJsonObject o = r.toObject();
            reqs.append(QStringLiteral("v1.LabelSelectorRequirement{Key:%1, Operator:%2, Values:%3}")
                            .arg(fielderror::quote(o.value(QLatin1String("key")).toString()),
                                fielderror::quote(o.value(QLatin1String("operator")).toString()),
                                goStringSlice(o.value(QLatin1String("values")))));
        }
        expressions = QStringLiteral("[]v1.LabelSelectorRequirement{") + reqs.join(QStringLiteral(", ")) + u'}';
    }
    return QStringLiteral("v1.LabelSelector{MatchLabels:%1, MatchExpressions:%2}")
        .arg(goStringMap(selector.value(QLatin1String("matchLabels"))), expressions);
}

QList<StatusCause> validateBuiltinObject(const ResourceType &type, const QJsonObject &object, const QJsonObject &old)
{
    QList<StatusCause> causes;
    if (type.custom)
        return causes;
    const QString group = type.gvr().group;
    const QString resource = type.gvr().resource;
    if (isWorkload(type)) {
        validateWorkload(type, object, old, causes);
    } else if (group.isEmpty() && resource == QLatin1String("pods")) {
        if (old.isEmpty())
            validatePodSpec(sub(object, "spec"), QStringLiteral("spec"), causes);
    } else if (group.isEmpty() && resource == QLatin1String("services")) {
        validateService(object, old, causes);
    } else if (group.isEmpty() && (resource == QLatin1String("configmaps") || resource == QLatin1String("secrets"))) {
        validateImmutableData(object, old, causes);
    } else if (bool mutating = false; isWebhookConfiguration(type, &mutating)) {
        causes = validateWebhookConfiguration(object, mutating);
    }
    return causes;
}

} // namespace opbench::apiserver

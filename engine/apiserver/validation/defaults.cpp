// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/defaults.h"

#include "engine/apiserver/validation/servicedefaults.h"

#include <QJsonArray>

namespace opbench::apiserver::defaults {

namespace {

const QLatin1String kSpec("spec");
const QLatin1String kTemplate("template");
const QLatin1String kApiVersion("apiVersion");
const QLatin1String kRbacGroup("rbac.authorization.k8s.io");

/// fieldRef.apiVersion "v1" of an env var's valueFrom or a downward API item.
void defaultFieldRef(QJsonObject &holder)
{
    editIfPresent(holder, QLatin1String("fieldRef"),
        [](QJsonObject &ref) { setDefaultString(ref, kApiVersion, QStringLiteral("v1")); });
}

void defaultHttpGet(QJsonObject &handler)
{
    editIfPresent(handler, QLatin1String("httpGet"), [](QJsonObject &get) {
        setDefaultString(get, QLatin1String("path"), QStringLiteral("/"));
        setDefaultString(get, QLatin1String("scheme"), QStringLiteral("HTTP"));
    });
}

void defaultProbe(QJsonObject &probe)
{
    setDefaultNonZero(probe, QLatin1String("timeoutSeconds"), 1);
    setDefaultNonZero(probe, QLatin1String("periodSeconds"), 10);
    setDefaultNonZero(probe, QLatin1String("successThreshold"), 1);
    setDefaultNonZero(probe, QLatin1String("failureThreshold"), 3);
    defaultHttpGet(probe);
    editIfPresent(probe, QLatin1String("grpc"),
        [](QJsonObject &grpc) { setDefault(grpc, QLatin1String("service"), QStringLiteral("")); });
}

/// A repository name the reference grammar accepts: an optional registry host[:port] and
/// lowercase path components.
bool validRepository(const QString &repo)
{
    QStringList parts = repo.split(QLatin1Char('/'));
    const QString first = parts.first();
    const bool domain = parts.size() > 1
        && (first.contains(QLatin1Char('.')) || first.contains(QLatin1Char(':')) || first == QLatin1String("localhost")
            || first != first.toLower());
    if (domain)
        parts.removeFirst();
    for (const QString &p : parts) {
        if (p.isEmpty() || !p.front().isLetterOrNumber() || !p.back().isLetterOrNumber())
            return false;
        for (const QChar c : p)
            if (!(c.isDigit() || (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || QStringView(u"._-").contains(c)))
                return false;
    }
    return true;
}

/// Pods only: requests copied from limits where missing.
void defaultRequestsFromLimits(QJsonObject &container)
{
    editIfPresent(container, QLatin1String("resources"), [](QJsonObject &resources) {
        const QJsonObject limits = resources.value(QLatin1String("limits")).toObject();
        if (limits.isEmpty())
            return;
        QJsonObject requests = resources.value(QLatin1String("requests")).toObject();
        for (auto it = limits.begin(); it != limits.end(); ++it)
            if (!requests.contains(it.key()))
                requests.insert(it.key(), it.value());
        resources.insert(QLatin1String("requests"), requests);
    });
}

/// Pods with hostNetwork only: hostPort = containerPort where unset.
void defaultHostPorts(QJsonObject &container)
{
    editEach(container, QLatin1String("ports"), [](QJsonObject &port) {
        const qint64 containerPort = port.value(QLatin1String("containerPort")).toInteger();
        if (containerPort != 0) // a zero hostPort stays unset (Go omits it)
            setDefaultNonZero(port, QLatin1String("hostPort"), containerPort);
    });
}

void defaultPodTemplateOf(QJsonObject &workload)
{
    editObject(workload, kSpec, [](QJsonObject &spec) {
        editObject(spec, kTemplate, [](QJsonObject &tmpl) { editObject(tmpl, kSpec, defaultPodSpec); });
    });
}

} // namespace

bool isUnset(const QJsonValue &v) { return v.isUndefined() || v.isNull(); }

void setDefault(QJsonObject &o, QLatin1String key, const QJsonValue &value)
{
    if (isUnset(o.value(key)))
        o.insert(key, value);
}

void setDefaultString(QJsonObject &o, QLatin1String key, const QString &value)
{
    const QJsonValue v = o.value(key);
    if (isUnset(v) || (v.isString() && v.toString().isEmpty()))
        o.insert(key, value);
}

void setDefaultNonZero(QJsonObject &o, QLatin1String key, qint64 value)
{
    const QJsonValue v = o.value(key);
    if (isUnset(v) || (v.isDouble() && v.toDouble() == 0))
        o.insert(key, value);
}

void editObject(QJsonObject &parent, QLatin1String key, const std::function<void(QJsonObject &)> &fn)
{
    const QJsonValue v = parent.value(key);
    if (!isUnset(v) && !v.isObject())
        return;
    QJsonObject child = v.toObject();
    const QJsonObject before = child; // shares child's data until fn changes it
    fn(child);
    // Writing an unchanged child back would copy the parent for nothing (equal shared data
    // compares in O(1)).
    if (!isUnset(v) && child == before)
        return;
    parent.insert(key, child);
}

void editIfPresent(QJsonObject &parent, QLatin1String key, const std::function<void(QJsonObject &)> &fn)
{
    if (parent.value(key).isObject())
        editObject(parent, key, fn);
}

void editEach(QJsonObject &parent, QLatin1String key, const std::function<void(QJsonObject &)> &fn)
{
    const QJsonValue v = parent.value(key);
    if (!v.isArray())
        return;
    QJsonArray items = v.toArray();
    bool changed = false;
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (!items.at(i).isObject())
            continue;
        QJsonObject item = items.at(i).toObject();
        const QJsonObject before = item;
        fn(item);
        if (item == before)
            continue;
        items.replace(i, item);
        changed = true;
    }
    if (changed)
        parent.insert(key, items);
}

void applyDefaults(const ResourceType &type, QJsonObject &object)
{
    if (type.custom)
        return;
    const GroupVersionResource gvr = type.gvr();
    const QString &r = gvr.resource;
    if (gvr.group == QLatin1String("apps")) {
        if (r == QLatin1String("deployments"))
            defaultDeployment(object);
        else if (r == QLatin1String("replicasets"))
            defaultReplicaSet(object);
    } else if (gvr.group.isEmpty()) {
        if (r == QLatin1String("pods"))
            defaultPod(object);
        else if (r == QLatin1String("services"))
            defaultService(object);
        else if (r == QLatin1String("namespaces"))
            defaultNamespace(object);
    } else if (gvr.group == QLatin1String("apiextensions.k8s.io") && r == QLatin1String("customresourcedefinitions")) {
        defaultCrd(object);
    } else if (gvr.group == kRbacGroup
        && (r == QLatin1String("rolebindings") || r == QLatin1String("clusterrolebindings"))) {
        defaultRoleBinding(object);
    }
}

void defaultDeployment(QJsonObject &deployment)
{
    editObject(deployment, kSpec, [](QJsonObject &spec) {
        setDefault(spec, QLatin1String("replicas"), 1);
        editObject(spec, QLatin1String("strategy"), [](QJsonObject &strategy) {
            setDefaultString(strategy, QLatin1String("type"), QStringLiteral("RollingUpdate"));
            if (strategy.value(QLatin1String("type")).toString() != QLatin1String("RollingUpdate"))
                return;
            editObject(strategy, QLatin1String("rollingUpdate"), [](QJsonObject &ru) {
                setDefault(ru, QLatin1String("maxUnavailable"), QStringLiteral("25%"));
                setDefault(ru, QLatin1String("maxSurge"), QStringLiteral("25%"));
            });
        });
        setDefault(spec, QLatin1String("revisionHistoryLimit"), 10);
        setDefault(spec, QLatin1String("progressDeadlineSeconds"), 600);
    });
    defaultPodTemplateOf(deployment);
}

void defaultReplicaSet(QJsonObject &replicaSet)
{
    editObject(replicaSet, kSpec, [](QJsonObject &spec) { setDefault(spec, QLatin1String("replicas"), 1); });
    defaultPodTemplateOf(replicaSet);
}

void defaultPod(QJsonObject &pod)
{
    editObject(pod, kSpec, [](QJsonObject &spec) {
        defaultPodSpec(spec);
        setDefault(spec, QLatin1String("enableServiceLinks"), true);
        const bool hostNetwork = spec.value(QLatin1String("hostNetwork")).toBool();
        for (const char *list : {"containers", "initContainers"}) {
            editEach(spec, QLatin1String(list), [hostNetwork](QJsonObject &c) {
                defaultRequestsFromLimits(c);
                if (hostNetwork)
                    defaultHostPorts(c);
            });
        }
    });
}

void defaultPodSpec(QJsonObject &spec)
{
    setDefaultString(spec, QLatin1String("dnsPolicy"), QStringLiteral("ClusterFirst"));
    setDefaultString(spec, QLatin1String("restartPolicy"), QStringLiteral("Always"));
    setDefault(spec, QLatin1String("securityContext"), QJsonObject());
    setDefault(spec, QLatin1String("terminationGracePeriodSeconds"), 30);
    setDefaultString(spec, QLatin1String("schedulerName"), QStringLiteral("default-scheduler"));
    for (const char *list : {"containers", "initContainers", "ephemeralContainers"})
        editEach(spec, QLatin1String(list), defaultContainer);
    editEach(spec, QLatin1String("volumes"), defaultVolume);
}

void defaultContainer(QJsonObject &container)
{
    setDefaultString(
        container, QLatin1String("imagePullPolicy"), pullPolicyFor(container.value(QLatin1String("image")).toString()));
    setDefaultString(container, QLatin1String("terminationMessagePath"), QStringLiteral("/dev/termination-log"));
    setDefaultString(container, QLatin1String("terminationMessagePolicy"), QStringLiteral("File"));
    editEach(container, QLatin1String("ports"),
        [](QJsonObject &port) { setDefaultString(port, QLatin1String("protocol"), QStringLiteral("TCP")); });
    editEach(container, QLatin1String("env"),
        [](QJsonObject &env) { editIfPresent(env, QLatin1String("valueFrom"), defaultFieldRef); });
    for (const char *probe : {"livenessProbe", "readinessProbe", "startupProbe"})
        editIfPresent(container, QLatin1String(probe), defaultProbe);
    editIfPresent(container, QLatin1String("lifecycle"), [](QJsonObject &lifecycle) {
        editIfPresent(lifecycle, QLatin1String("postStart"), defaultHttpGet);
        editIfPresent(lifecycle, QLatin1String("preStop"), defaultHttpGet);
    });
}

void defaultVolume(QJsonObject &volume)
{
    bool hasSource = false;
    for (auto it = volume.begin(); it != volume.end() && !hasSource; ++it)
        hasSource = it.key() != QLatin1String("name") && !it.value().isNull();
    if (!hasSource)
        volume.insert(QLatin1String("emptyDir"), QJsonObject());
    const QLatin1String defaultMode("defaultMode");
    const auto mode420 = [defaultMode](QJsonObject &source) { setDefault(source, defaultMode, 420); };
    editIfPresent(volume, QLatin1String("secret"), mode420);
    editIfPresent(volume, QLatin1String("configMap"), mode420);
    editIfPresent(volume, QLatin1String("downwardAPI"), [mode420](QJsonObject &source) {
        mode420(source);
        editEach(source, QLatin1String("items"), defaultFieldRef);
    });
    editIfPresent(volume, QLatin1String("projected"), [mode420](QJsonObject &projected) {
        mode420(projected);
        editEach(projected, QLatin1String("sources"), [](QJsonObject &source) {
            editIfPresent(source, QLatin1String("serviceAccountToken"),
                [](QJsonObject &token) { setDefault(token, QLatin1String("expirationSeconds"), 3600); });
            editIfPresent(source, QLatin1String("downwardAPI"),
                [](QJsonObject &d) { editEach(d, QLatin1String("items"), defaultFieldRef); });
        });
    });
    editIfPresent(volume, QLatin1String("hostPath"),
        [](QJsonObject &hostPath) { setDefault(hostPath, QLatin1String("type"), QStringLiteral("")); });
}

QString pullPolicyFor(const QString &image)
{
    const QString always = QStringLiteral("Always");
    const QString ifNotPresent = QStringLiteral("IfNotPresent");
    const qsizetype at = image.indexOf(QLatin1Char('@'));
    const QString name = at < 0 ? image : image.left(at);
    const qsizetype slash = name.lastIndexOf(QLatin1Char('/'));
    const qsizetype colon = name.lastIndexOf(QLatin1Char(':'));
    const bool tagged = colon > slash;
    const QString tag = tagged ? name.mid(colon + 1) : QString();
    if (name.isEmpty() || !validRepository(tagged ? name.left(colon) : name) || (tagged && tag.isEmpty())
        || (at >= 0 && at + 1 == image.size()))
        return ifNotPresent; // the real server cannot parse it: no tag found
    if (tag == QLatin1String("latest") || (!tagged && at < 0))
        return always;
    return ifNotPresent;
}

void defaultNamespace(QJsonObject &ns)
{
    editObject(ns, QLatin1String("metadata"), [](QJsonObject &meta) {
        const QString name = meta.value(QLatin1String("name")).toString();
        if (name.isEmpty())
            return;
        QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
        labels.insert(QLatin1String("kubernetes.io/metadata.name"), name);
        meta.insert(QLatin1String("labels"), labels);
    });
}

void defaultCrd(QJsonObject &crd)
{
    editObject(crd, kSpec, [](QJsonObject &spec) {
        editIfPresent(spec, QLatin1String("names"), [](QJsonObject &names) {
            const QString kind = names.value(QLatin1String("kind")).toString();
            setDefaultString(names, QLatin1String("singular"), kind.toLower());
            if (!kind.isEmpty())
                setDefaultString(names, QLatin1String("listKind"), kind + QLatin1String("List"));
        });
        setDefault(
            spec, QLatin1String("conversion"), QJsonObject{{QStringLiteral("strategy"), QStringLiteral("None")}});
        editIfPresent(spec, QLatin1String("conversion"), [](QJsonObject &conversion) {
            editIfPresent(conversion, QLatin1String("webhook"), [](QJsonObject &webhook) {
                editIfPresent(webhook, QLatin1String("clientConfig"), [](QJsonObject &config) {
                    editIfPresent(config, QLatin1String("service"),
                        [](QJsonObject &service) { setDefault(service, QLatin1String("port"), 443); });
                });
            });
        });
    });
}

void defaultRoleBinding(QJsonObject &binding)
{
    editIfPresent(binding, QLatin1String("roleRef"),
        [](QJsonObject &ref) { setDefaultString(ref, QLatin1String("apiGroup"), kRbacGroup); });
    editEach(binding, QLatin1String("subjects"), [](QJsonObject &subject) {
        const QString kind = subject.value(QLatin1String("kind")).toString();
        if (kind == QLatin1String("User") || kind == QLatin1String("Group"))
            setDefaultString(subject, QLatin1String("apiGroup"), kRbacGroup);
    });
}

} // namespace opbench::apiserver::defaults

// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/clusterhandoff.h"

#include "engine/api/lease.h"
#include "engine/api/restmapper.h"
#include "engine/api/status.h"
#include "engine/api/yamlcodec.h"
#include "engine/client/awaitsignal.h"
#include "engine/client/restclient.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>

namespace opbench::workbench::clusterhandoff {

namespace {

const char *const ManifestDir = ":/opbench/manifests";
const char *const FieldManager = "opbench-workbench";
const char *const LeaderElectionRole = "opbench-operator-leader-election";

QString tr(const char *text) { return QCoreApplication::translate("ClusterHandoff", text); }

int kindRank(const QString &kind)
{
    static const QStringList order{QStringLiteral("CustomResourceDefinition"), QStringLiteral("Namespace"),
        QStringLiteral("ServiceAccount"), QStringLiteral("ClusterRole"), QStringLiteral("ClusterRoleBinding"),
        QStringLiteral("Role"), QStringLiteral("RoleBinding"), QStringLiteral("Service"), QStringLiteral("Deployment")};
    const qsizetype i = order.indexOf(kind);
    return i < 0 ? int(order.size()) : int(i);
}

QString describe(const QJsonObject &doc)
{
    const QJsonObject meta = doc.value(QLatin1String("metadata")).toObject();
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    const QString name = meta.value(QLatin1String("name")).toString();
    return doc.value(QLatin1String("kind")).toString() + u' ' + (ns.isEmpty() ? name : ns + u'/' + name);
}

bool isOperatorDeployment(const QJsonObject &doc)
{
    return doc.value(QLatin1String("kind")).toString() == QLatin1String("Deployment")
        && doc.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString() == deploymentName();
}

QJsonObject withNamespace(QJsonObject doc, const QString &ns)
{
    QJsonObject meta = doc.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("namespace"), ns);
    doc.insert(QStringLiteral("metadata"), meta);
    return doc;
}

/// The container args without any `--<flag>=…`, then `--<flag>=<value>` appended.
QJsonArray withFlag(const QJsonArray &args, const QString &flag, const QString &value)
{
    QJsonArray out;
    const QString prefix = QStringLiteral("--") + flag + u'=';
    for (const QJsonValue &a : args) {
        if (!a.toString().startsWith(prefix))
            out.append(a);
    }
    out.append(prefix + value);
    return out;
}

QJsonObject retargetDeployment(
    QJsonObject doc, const QString &image, const QString &leaseNamespace, const QString &leaseName)
{
    QJsonObject spec = doc.value(QLatin1String("spec")).toObject();
    spec.insert(QStringLiteral("replicas"), 1);
    QJsonObject tmpl = spec.value(QLatin1String("template")).toObject();
    QJsonObject podSpec = tmpl.value(QLatin1String("spec")).toObject();
    QJsonArray containers = podSpec.value(QLatin1String("containers")).toArray();
    if (!containers.isEmpty()) {
        QJsonObject c = containers.at(0).toObject();
        c.insert(QStringLiteral("image"), image);
        QJsonArray args
            = withFlag(c.value(QLatin1String("args")).toArray(), QStringLiteral("leader-election-id"), leaseName);
        c.insert(QStringLiteral("args"), withFlag(args, QStringLiteral("leader-election-namespace"), leaseNamespace));
        containers.replace(0, c);
    }
    podSpec.insert(QStringLiteral("containers"), containers);
    tmpl.insert(QStringLiteral("spec"), podSpec);
    spec.insert(QStringLiteral("template"), tmpl);
    doc.insert(QStringLiteral("spec"), spec);
    return doc;
}

QString failure(const QJsonObject &doc, const Status &error)
{
    return QStringLiteral("%1: %2: %3").arg(describe(doc)).arg(error.code()).arg(error.message());
}

GroupVersionResource deploymentsGvr()
{
    return {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
}

} // namespace

QString deploymentNamespace() { return QStringLiteral("opbench-system"); }

QString deploymentName() { return QStringLiteral("opbench-operator"); }

QString podSelector() { return QStringLiteral("app.kubernetes.io/name=opbench-operator"); }

Expected<QList<QJsonObject>> shippedManifests(const QByteArrayList &crds)
{
    Expected<QList<QJsonObject>> all = QList<QJsonObject>();
    for (const QByteArray &crd : crds) {
        auto docs = yamlToJson(crd);
        if (!docs)
            return Status::internalError(tr("The operator's CRD does not parse: %1").arg(docs.error().message()));
        all->append(*docs);
    }
    const QDir dir(QString::fromLatin1(ManifestDir));
    const QStringList files = dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        return Status::internalError(
            tr("No manifests compiled in at %1 (packaging/manifests/*.yaml).").arg(dir.path()));
    for (const QString &name : files) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            return Status::internalError(tr("Cannot read %1: %2").arg(f.fileName(), f.errorString()));
        auto docs = yamlToJson(f.readAll());
        if (!docs)
            return Status::internalError(
                tr("packaging/manifests/%1 does not parse: %2").arg(name, docs.error().message()));
        all->append(*docs);
    }
    return all;
}

QString shippedImage()
{
    auto docs = shippedManifests({});
    if (!docs)
        return {};
    for (const QJsonObject &d : *docs) {
        if (isOperatorDeployment(d)) {
            const QJsonArray containers = d.value(QLatin1String("spec"))
                                              .toObject()
                                              .value(QLatin1String("template"))
                                              .toObject()
                                              .value(QLatin1String("spec"))
                                              .toObject()
                                              .value(QLatin1String("containers"))
                                              .toArray();
            return containers.isEmpty() ? QString()
                                        : containers.at(0).toObject().value(QLatin1String("image")).toString();
        }
    }
    return {};
}

Expected<QList<QJsonObject>> prepare(
    QList<QJsonObject> docs, const QString &image, const QString &leaseNamespace, const QString &leaseName)
{
    if (image.trimmed().isEmpty())
        return Status::badRequest(tr("An operator image is required (e.g. %1).").arg(shippedImage()));
    bool found = false;
    for (QJsonObject &d : docs) {
        const QString kind = d.value(QLatin1String("kind")).toString();
        const QString name = d.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        if (isOperatorDeployment(d)) {
            d = retargetDeployment(d, image.trimmed(), leaseNamespace, leaseName);
            found = true;
        } else if ((kind == QLatin1String("Role") || kind == QLatin1String("RoleBinding"))
            && name == QLatin1String(LeaderElectionRole)) {
            d = withNamespace(d, leaseNamespace);
        }
    }
    if (!found)
        return Status::badRequest(tr("The manifests hold no Deployment %1.").arg(deploymentName()));
    std::stable_sort(docs.begin(), docs.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return kindRank(a.value(QLatin1String("kind")).toString())
            < kindRank(b.value(QLatin1String("kind")).toString());
    });
    return docs;
}

QCoro::Task<Expected<QString>> apply(RestClient *client, QList<QJsonObject> docs)
{
    QPointer<RestClient> guard(client);
    const RestMapper mapper = RestMapper::withBuiltins();
    PatchOptions opts;
    opts.fieldManager = QString::fromLatin1(FieldManager);
    opts.force = true;
    QStringList kinds;
    for (const QJsonObject &doc : docs) {
        const auto gvk = GroupVersionKind::fromApiVersionKind(
            doc.value(QLatin1String("apiVersion")).toString(), doc.value(QLatin1String("kind")).toString());
        const auto mapping = mapper.forKind(gvk);
        if (!mapping)
            co_return Status::badRequest(
                tr("applied %1 of %2 objects; %3: unknown kind").arg(kinds.size()).arg(docs.size()).arg(describe(doc)));
        const QJsonObject meta = doc.value(QLatin1String("metadata")).toObject();
        const QString ns = mapping->namespaced ? meta.value(QLatin1String("namespace")).toString() : QString();
        const QByteArray body = QJsonDocument(doc).toJson(QJsonDocument::Compact);
        if (!guard)
            co_return Status::internalError(tr("the connection closed while applying the manifests"));
        auto done = co_await guard->patch(
            mapping->gvr, ns, meta.value(QLatin1String("name")).toString(), PatchType::Apply, body, opts);
        if (!done) {
            co_return Status(done.error().code(), done.error().reason(),
                tr("applied %1 of %2 objects; %3").arg(kinds.size()).arg(docs.size()).arg(failure(doc, done.error())));
        }
        kinds << describe(doc);
    }
    co_return tr("applied %1 objects (%2)").arg(kinds.size()).arg(kinds.join(QStringLiteral(", ")));
}

QCoro::Task<Expected<QString>> scaleToZero(RestClient *client)
{
    QPointer<RestClient> guard(client);
    const QString what = QStringLiteral("Deployment %1/%2").arg(deploymentNamespace(), deploymentName());
    auto done = co_await guard->patch(deploymentsGvr(), deploymentNamespace(), deploymentName(), PatchType::Merge,
        QByteArrayLiteral("{\"spec\":{\"replicas\":0}}"));
    if (!done)
        co_return Status(done.error().code(), done.error().reason(),
            tr("scaling %1 to 0 failed: %2: %3").arg(what).arg(done.error().code()).arg(done.error().message()));
    co_return tr("scaled %1 to 0").arg(what);
}

QCoro::Task<Expected<QString>> waitForRelease(
    RestClient *client, QString leaseNamespace, QString leaseName, std::chrono::milliseconds timeout)
{
    QPointer<RestClient> guard(client);
    const GroupVersionResource pods{QString(), QStringLiteral("v1"), QStringLiteral("pods")};
    const GroupVersionResource leases{
        QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
    Clock *clock = client->config().clock ? client->config().clock : Clock::system();
    const auto deadline = clock->now() + timeout;
    ListOptions selector;
    selector.labelSelector = podSelector();
    while (guard) {
        auto listed = co_await guard->list(pods, deploymentNamespace(), selector);
        if (listed && listed->items.isEmpty())
            co_return tr("its pods are gone");
        if (!guard)
            break;
        auto got = co_await guard->get(leases, leaseNamespace, leaseName);
        if (got) {
            const Lease lease(got.value());
            if (lease.holderIdentity().isEmpty())
                co_return tr("the Lease has no holder");
            const QDateTime expiry = lease.renewTime().addSecs(lease.leaseDurationSeconds());
            if (lease.renewTime().isValid() && expiry < clock->wallNow())
                co_return tr("the lease of %1 expired").arg(lease.holderIdentity());
        }
        if (clock->now() >= deadline)
            co_return Status(0, QStringLiteral("Timeout"),
                tr("after %1 s the operator's pods still run and hold the Lease")
                    .arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()));
        if (!guard)
            break;
        co_await detail::ClockSleep(clock, std::chrono::seconds(1), guard.data());
    }
    co_return Status::internalError(tr("the connection closed while waiting for the operator to stop"));
}

} // namespace opbench::workbench::clusterhandoff

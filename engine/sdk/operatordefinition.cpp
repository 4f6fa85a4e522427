// SPDX-License-Identifier: Apache-2.0
#include "engine/sdk/operatordefinition.h"

#include "engine/api/crdmapping.h"
#include "engine/api/restmapper.h"
#include "engine/api/status.h"
#include "engine/api/yamlcodec.h"
#include "engine/client/restclient.h"
#include "engine/manager/manager.h"

#include <QPointer>

#include <QDir>
#include <QFile>

namespace opbench {

OperatorDefinition::OperatorDefinition(QString operatorName)
    : name(std::move(operatorName))
    , leaseName(name + QStringLiteral("-operator"))
{ }

Expected<Controller *> OperatorSetup::operator()(Manager *manager) const
{
    if (m_controllerFn)
        return m_controllerFn(manager);
    if (!m_fn)
        return Status::badRequest(QStringLiteral("no setup function"));
    const qsizetype before = manager->controllers().size();
    if (Expected<void> ok = m_fn(manager); !ok)
        return ok.error();
    const QList<Controller *> after = manager->controllers();
    if (after.size() <= before)
        return Status::badRequest(QStringLiteral("the setup added no controller to the manager (use "
                                                 "ControllerBuilder(manager)...complete(reconciler))"));
    return after.at(before);
}

Expected<Controller *> runSetup(OperatorDefinition &def, Manager *manager)
{
    if (!def.setup)
        return Status::badRequest(QStringLiteral("operator %1: no setup function").arg(def.name));
    Expected<Controller *> observed = def.setup(manager);
    if (!observed)
        return observed;
    if (def.kinds.isEmpty()) {
        for (const Controller *c : manager->controllers())
            for (const GroupVersionKind &gvk : c->watchedKinds())
                if (!def.kinds.contains(gvk))
                    def.kinds.append(gvk);
    }
    return observed;
}

Expected<void> runWebhookSetup(const OperatorDefinition &def, Manager *manager)
{
    if (!def.webhooks)
        return {};
    if (Expected<void> ok = def.webhooks(manager); !ok)
        return Status::badRequest(
            QStringLiteral("operator %1: the webhooks could not be set up: %2").arg(def.name, ok.error().message()));
    return {};
}

Expected<void> registerCrds(RestMapper &mapper, const QByteArrayList &crds)
{
    for (qsizetype i = 0; i < crds.size(); ++i) {
        auto mappings = crdMappings(crds.at(i), QStringLiteral("CRD %1 of the operator definition").arg(i + 1));
        if (!mappings)
            return mappings.error();
        for (const ResourceMapping &m : *mappings)
            mapper.add(m);
    }
    return {};
}

QCoro::Task<Expected<void>> installCrds(RestClient *client, QByteArrayList crds)
{
    QPointer<RestClient> guard(client);
    const GroupVersionResource resource{
        QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"), QStringLiteral("customresourcedefinitions")};
    for (const QByteArray &yaml : std::as_const(crds)) {
        auto docs = yamlToJson(yaml);
        if (!docs)
            co_return Status::badRequest(QStringLiteral("the CRD does not parse: %1").arg(docs.error().message()));
        for (const QJsonObject &doc : *docs) {
            if (!guard)
                co_return Status::badRequest(QStringLiteral("the client is gone"));
            auto created = co_await guard->create(resource, QString(), Object::fromJson(doc));
            if (!created && !isAlreadyExists(created.error()))
                co_return created.error();
        }
    }
    co_return Expected<void>{};
}

Expected<PreflightSpec> preflightSpecFor(const OperatorDefinition &def, const RestMapper &mapper,
    const QString &namespaceName, const QString &leaseNamespace)
{
    // Before setup has derived the kinds from the controllers, the CRDs' own kinds stand in (the
    // first CRD's kind is the For kind).
    QList<GroupVersionKind> kinds = def.kinds;
    if (kinds.isEmpty()) {
        for (const QByteArray &crd : def.crds)
            if (auto mappings = crdMappings(crd, QStringLiteral("CRD")); mappings.ok())
                for (const ResourceMapping &m : *mappings)
                    kinds.append({m.gvr.group, m.gvr.version, m.kind});
    }
    if (kinds.isEmpty())
        return Status::badRequest(
            QStringLiteral("operator %1: OperatorDefinition has neither kinds nor CRDs").arg(def.name));
    PreflightSpec spec;
    for (const GroupVersionKind &gvk : kinds) {
        const auto m = mapper.forKind(gvk);
        if (!m)
            return Status::badRequest(QStringLiteral("operator %1: kind %2 is not mapped (add its CRD to "
                                                     "OperatorDefinition::crds)")
                                          .arg(def.name, gvk.toString()));
        spec.cached.append(m->gvr);
    }
    spec.primary = spec.cached.first();
    const GroupVersionKind &primary = kinds.first();
    RestMapper own;
    const bool fromCrd = registerCrds(own, def.crds).ok() && own.forKind(primary).has_value();
    spec.primaryDescription = QStringLiteral("The %1 %2 (%3.%4, version %5)")
                                  .arg(primary.kind, fromCrd ? QStringLiteral("CRD") : QStringLiteral("resource"),
                                      spec.primary.resource, spec.primary.group, spec.primary.version);
    spec.installHint
        = fromCrd ? QStringLiteral("Install it with: kubectl apply -f <the operator's CRD file>") : QString();
    spec.namespaceName = namespaceName;
    if (!leaseNamespace.isEmpty() && !def.leaseName.isEmpty()) {
        spec.leaseName = def.leaseName;
        spec.leaseNamespace = leaseNamespace;
    }
    return spec;
}

Expected<QList<Object>> loadObjects(const QString &dir)
{
    QList<Object> out;
    if (dir.isEmpty() || !QDir(dir).exists())
        return out;
    const QDir d(dir);
    for (const QString &name : d.entryList(
             {QStringLiteral("*.yaml"), QStringLiteral("*.yml"), QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile f(d.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            return Status::badRequest(QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString()));
        auto docs = yamlToJson(f.readAll());
        if (!docs)
            return Status::badRequest(QStringLiteral("%1: %2").arg(f.fileName(), docs.error().message()));
        for (const QJsonObject &doc : *docs)
            out.append(Object::fromJson(doc));
    }
    return out;
}

} // namespace opbench

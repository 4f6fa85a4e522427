// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/controllers/crdcontroller.h"

#include "engine/api/timeformat.h"
#include "engine/apiserver/storage/store.h"
#include "engine/base/clock.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

const GroupVersionResource kCrds{
    QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"), QStringLiteral("customresourcedefinitions")};

QJsonObject condition(const QString &type, bool ok, const QString &reason, const QString &message, const QString &now,
    const QJsonArray &previous)
{
    QString since = now;
    const QString status = ok ? QStringLiteral("True") : QStringLiteral("False");
    for (const QJsonValue &v : previous) {
        const QJsonObject c = v.toObject();
        if (c.value(QLatin1String("type")).toString() == type && c.value(QLatin1String("status")).toString() == status)
            since = c.value(QLatin1String("lastTransitionTime")).toString(now);
    }
    return QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("status"), status},
        {QStringLiteral("reason"), reason}, {QStringLiteral("message"), message},
        {QStringLiteral("lastTransitionTime"), since}};
}

bool hasFinalizer(const QJsonObject &o, const QString &f)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("finalizers")).toArray().contains(f);
}

} // namespace

QString crdCleanupFinalizer() { return QStringLiteral("customresourcecleanup.apiextensions.k8s.io"); }

CrdController::CrdController(Store *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    connect(store, &Store::committed, this, &CrdController::onCommitted);
}

void CrdController::resyncAll()
{
    auto list = m_store->list(kCrds);
    if (!list)
        return;
    for (const Object &o : list->items)
        reconcile(o.name());
}

void CrdController::onCommitted(const StoreEvent &event)
{
    if (event.gvr != kCrds) {
        // an object of a terminating CRD went: maybe the last one
        if (event.type == EventType::Deleted && event.gvr.version.isEmpty() && !event.gvr.group.isEmpty()) {
            const QString crdName = event.gvr.resource + u'.' + event.gvr.group;
            if (auto crd = m_store->get(kCrds, QString(), crdName); crd && crd->isBeingDeleted())
                cleanup(crdName);
        }
        return;
    }
    if (event.type == EventType::Deleted) {
        const QJsonObject spec = event.object.json().value(QLatin1String("spec")).toObject();
        const QString group = spec.value(QLatin1String("group")).toString();
        const QString plural = spec.value(QLatin1String("names")).toObject().value(QLatin1String("plural")).toString();
        QList<GroupVersionResource> storages;
        for (const ResourceType &t : m_store->registry()->all())
            if (t.custom && t.crdName == event.object.name() && !storages.contains(t.storage))
                storages << t.storage;
        m_store->registry()->unregisterCrd(event.object.name());
        for (const GroupVersionResource &g : storages)
            m_store->purge(g);
        Q_UNUSED(group);
        Q_UNUSED(plural);
        return;
    }
    reconcile(event.object.name());
}

void CrdController::reconcile(const QString &name)
{
    auto current = m_store->get(kCrds, QString(), name);
    if (!current)
        return;
    const QJsonObject crd = current->json();
    const QStringList problems = current->isBeingDeleted() ? QStringList() : m_store->registry()->registerCrd(crd);
    const QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
    QJsonObject status = crd.value(QLatin1String("status")).toObject();
    const QJsonArray previous = status.value(QLatin1String("conditions")).toArray();
    const QString now = formatTimestamp(m_store->clock()->wallNow());
    const bool ok = problems.isEmpty();
    QJsonArray conditions;
    conditions << condition(QStringLiteral("NamesAccepted"), ok,
        ok ? QStringLiteral("NoConflicts") : QStringLiteral("NameConflict"),
        ok ? QStringLiteral("no conflicts found") : problems.join(QLatin1String("; ")), now, previous)
               << condition(QStringLiteral("Established"), ok,
                      ok ? QStringLiteral("InitialNamesAccepted") : QStringLiteral("NotAccepted"),
                      ok ? QStringLiteral("the initial names have been accepted")
                         : QStringLiteral("not all names are accepted"),
                      now, previous);
    if (current->isBeingDeleted() && hasFinalizer(crd, crdCleanupFinalizer())) {
        conditions << condition(QStringLiteral("Terminating"), true, QStringLiteral("InstanceDeletionInProgress"),
            QStringLiteral("CustomResource deletion is in progress"), now, previous);
    }
    status.insert(QStringLiteral("conditions"), conditions);
    QJsonObject accepted = spec.value(QLatin1String("names")).toObject();
    if (!accepted.contains(QLatin1String("listKind")))
        accepted.insert(
            QStringLiteral("listKind"), accepted.value(QLatin1String("kind")).toString() + QStringLiteral("List"));
    if (!accepted.contains(QLatin1String("singular")))
        accepted.insert(QStringLiteral("singular"), accepted.value(QLatin1String("kind")).toString().toLower());
    status.insert(QStringLiteral("acceptedNames"), ok ? accepted : QJsonObject());
    QJsonArray stored = status.value(QLatin1String("storedVersions")).toArray();
    for (const QJsonValue &v : spec.value(QLatin1String("versions")).toArray())
        if (v.toObject().value(QLatin1String("storage")).toBool()
            && !stored.contains(v.toObject().value(QLatin1String("name"))))
            stored.append(v.toObject().value(QLatin1String("name")));
    status.insert(QStringLiteral("storedVersions"), stored);
    QJsonObject next = crd;
    next.insert(QStringLiteral("status"), status);
    (void)m_store->updateStatus(kCrds, QString(), name, next); // a no-op when nothing changed
    if (current->isBeingDeleted())
        cleanup(name);
}

void CrdController::cleanup(const QString &name)
{
    auto crd = m_store->get(kCrds, QString(), name);
    if (!crd || !crd->isBeingDeleted() || !hasFinalizer(crd->json(), crdCleanupFinalizer()))
        return;
    const QJsonObject spec = crd->json().value(QLatin1String("spec")).toObject();
    const GroupVersionResource storage{spec.value(QLatin1String("group")).toString(), QString(),
        spec.value(QLatin1String("names")).toObject().value(QLatin1String("plural")).toString()};
    if (const auto type = m_store->registry()->find(storage)) {
        auto objects = m_store->list(type->gvr());
        if (objects) {
            for (const Object &o : std::as_const(objects->items)) {
                if (!o.isBeingDeleted())
                    (void)m_store->remove(type->gvr(), o.namespaceName(), o.name(),
                        DeleteOptions{QStringLiteral("Background"), {}, o.uid(), {}, false});
            }
        }
        if (m_store->count(type->gvr()) > 0)
            return; // finalizers of the objects hold them: their removal brings us back here
    }
    QJsonObject json = m_store->get(kCrds, QString(), name)->json();
    QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    QJsonArray kept;
    for (const QJsonValue &f : meta.value(QLatin1String("finalizers")).toArray())
        if (f.toString() != crdCleanupFinalizer())
            kept.append(f);
    if (kept.isEmpty())
        meta.remove(QLatin1String("finalizers"));
    else
        meta.insert(QLatin1String("finalizers"), kept);
    json.insert(QLatin1String("metadata"), meta);
    (void)m_store->update(kCrds, QString(), name, json); // the last finalizer: the store removes the CRD
}

} // namespace opbench::apiserver

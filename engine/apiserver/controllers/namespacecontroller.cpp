// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/controllers/namespacecontroller.h"

#include "engine/apiserver/storage/store.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {
const GroupVersionResource kNamespaces{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};
}

NamespaceController::NamespaceController(Store *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_timer(this)
{
    connect(store, &Store::committed, this, &NamespaceController::onCommitted);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &NamespaceController::sweep);
}

void NamespaceController::onCommitted(const StoreEvent &event)
{
    if (event.gvr != kNamespaces || event.type == EventType::Deleted || !event.object.isBeingDeleted())
        return;
    m_terminating.insert(event.object.name());
    if (!m_timer.isActive())
        m_timer.start(0);
}

void NamespaceController::sweep()
{
    const QSet<QString> pending = m_terminating;
    for (const QString &ns : pending)
        if (sweepOne(ns))
            m_terminating.remove(ns);
    if (!m_terminating.isEmpty())
        m_timer.start(100); // objects held by finalizers: look again shortly
}

bool NamespaceController::sweepOne(const QString &ns)
{
    auto nsObj = m_store->get(kNamespaces, QString(), ns);
    if (!nsObj)
        return true;
    bool empty = true;
    for (const GroupVersionResource &gvr : m_store->populatedResources()) {
        const auto type = m_store->registry()->find(gvr);
        if (!type || !type->namespaced())
            continue;
        ListOptions lo;
        lo.namespaceName = ns;
        auto list = m_store->list(gvr, lo);
        if (!list)
            continue;
        for (const Object &o : list->items) {
            empty = false;
            if (!o.isBeingDeleted())
                (void)m_store->remove(gvr, ns, o.name(), DeleteOptions{QStringLiteral("Background"), 0, {}, {}, false});
        }
    }
    if (!empty)
        return false;
    QJsonObject json = nsObj->json();
    QJsonObject spec = json.value(QLatin1String("spec")).toObject();
    spec.insert(QStringLiteral("finalizers"), QJsonArray());
    json.insert(QStringLiteral("spec"), spec);
    (void)m_store->update(kNamespaces, QString(), ns, json);
    return true;
}

} // namespace opbench::apiserver

// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/builder.h"

namespace opbench {

ControllerBuilder::ControllerBuilder(InformerCache *cache) : m_cache(cache) {}

ControllerBuilder::~ControllerBuilder() = default;
ControllerBuilder::ControllerBuilder(ControllerBuilder &&) noexcept = default;
ControllerBuilder &ControllerBuilder::operator=(ControllerBuilder &&) noexcept = default;

ControllerBuilder &ControllerBuilder::named(const QString &name)
{
    m_name = name;
    return *this;
}

ControllerBuilder &ControllerBuilder::forKind(const GroupVersionKind &gvk, QList<Predicate> predicates)
{
    if (m_for && m_error.isEmpty())
        m_error = QStringLiteral("forKind() can only be called once (already %1, now %2)").arg(m_for->toString(), gvk.toString());
    m_for = gvk;
    m_forPredicates = std::move(predicates);
    return *this;
}

ControllerBuilder &ControllerBuilder::owns(const GroupVersionKind &gvk, QList<Predicate> predicates, bool onlyController)
{
    m_watches.push_back(Watch{gvk, nullptr, std::move(predicates), onlyController});
    return *this;
}

ControllerBuilder &ControllerBuilder::watches(const GroupVersionKind &gvk, std::unique_ptr<EventHandler> handler,
                                              QList<Predicate> predicates)
{
    m_watches.push_back(Watch{gvk, std::move(handler), std::move(predicates), std::nullopt});
    return *this;
}

ControllerBuilder &ControllerBuilder::watches(const GroupVersionKind &gvk, MapFunc map, QList<Predicate> predicates)
{
    return watches(gvk, enqueueRequestsFromMapFunc(std::move(map)), std::move(predicates));
}

ControllerBuilder &ControllerBuilder::withEventFilter(Predicate predicate)
{
    m_globalPredicates.append(std::move(predicate));
    return *this;
}

ControllerBuilder &ControllerBuilder::withOptions(ControllerOptions options)
{
    m_options = std::move(options);
    return *this;
}

Expected<Controller *> ControllerBuilder::build(std::shared_ptr<Reconciler> reconciler, QObject *parent)
{
    if (!m_error.isEmpty())
        return Status::badRequest(m_error);
    if (!m_for)
        return Status::badRequest(QStringLiteral("must provide an object for reconciliation (forKind())"));
    auto forInformer = m_cache->informerFor(*m_for);
    if (!forInformer.ok())
        return forInformer.error();
    const auto ownerMapping = m_cache->mapper().forKind(*m_for);
    m_options.forKind = *m_for;
    if (!m_name.isEmpty())
        m_options.name = m_name;
    if (m_options.name.isEmpty())
        m_options.name = m_for->kind.toLower();
    // Resolve every informer before creating the controller, so a bad kind leaves nothing behind.
    std::vector<Informer *> informers;
    for (const Watch &w : m_watches) {
        auto inf = m_cache->informerFor(w.gvk, w.projection);
        if (!inf.ok())
            return inf.error();
        informers.push_back(*inf);
    }
    auto created = Controller::create(std::move(m_options), std::move(reconciler), parent);
    if (!created.ok())
        return created.error();
    Controller *c = *created;
    c->setForInformer(*forInformer);
    c->watch(*forInformer, *m_for, enqueueRequestForObject(), m_globalPredicates + m_forPredicates);
    for (size_t i = 0; i < m_watches.size(); ++i) {
        Watch &w = m_watches[i];
        std::unique_ptr<EventHandler> handler = w.ownsOnlyController
                                                    ? enqueueRequestForOwner(*m_for, !ownerMapping || ownerMapping->namespaced,
                                                                             *w.ownsOnlyController)
                                                    : std::move(w.handler);
        c->watch(informers[i], w.gvk, std::move(handler), m_globalPredicates + w.predicates);
    }
    m_watches.clear();
    return c;
}

ControllerBuilder &ControllerBuilder::owns(const GroupVersionKind &gvk, ObjectProjection projection,
                                           QList<Predicate> predicates, bool onlyController)
{
    owns(gvk, std::move(predicates), onlyController);
    m_watches.back().projection = projection;
    return *this;
}

ControllerBuilder &ControllerBuilder::watches(const GroupVersionKind &gvk, ObjectProjection projection,
                                              std::unique_ptr<EventHandler> handler, QList<Predicate> predicates)
{
    watches(gvk, std::move(handler), std::move(predicates));
    m_watches.back().projection = projection;
    return *this;
}

ControllerBuilder &ControllerBuilder::watches(const GroupVersionKind &gvk, ObjectProjection projection, MapFunc map,
                                              QList<Predicate> predicates)
{
    return watches(gvk, projection, enqueueRequestsFromMapFunc(std::move(map)), std::move(predicates));
}

} // namespace opbench

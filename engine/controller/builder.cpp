// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/builder.h"

#include <QPointer>

#include <algorithm>

namespace opbench {

namespace {

/// The kind's informer, looked up in `cache` when the controller starts (not at build time: a
/// standby replica lists and watches nothing for its controllers).
Controller::InformerSource informerSource(
    InformerCache *cache, const GroupVersionKind &gvk, ObjectProjection projection = ObjectProjection::Normal)
{
    return [cache = QPointer<InformerCache>(cache), gvk, projection]() -> Expected<Informer *> {
        if (!cache)
            return Status::transport(
                QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("the cache was destroyed"));
        return cache->informerFor(gvk, projection);
    };
}

Status unmappedKind(const GroupVersionKind &gvk)
{
    return Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("no matches for kind \"%1\" in version \"%2\"").arg(gvk.kind, gvk.groupVersion().toString()));
}

} // namespace

ControllerBuilder::ControllerBuilder(InformerCache *cache)
    : m_cache(cache)
{ }

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
        m_error = QStringLiteral("forKind() can only be called once (already %1, now %2)")
                      .arg(m_for->toString(), gvk.toString());
    m_for = gvk;
    m_forPredicates = std::move(predicates);
    return *this;
}

ControllerBuilder &ControllerBuilder::owns(
    const GroupVersionKind &gvk, QList<Predicate> predicates, bool onlyController)
{
    m_watches.push_back(Watch{gvk, nullptr, std::move(predicates), onlyController});
    return *this;
}

ControllerBuilder &ControllerBuilder::watches(
    const GroupVersionKind &gvk, std::unique_ptr<EventHandler> handler, QList<Predicate> predicates)
{
    m_watches.push_back(Watch{gvk, std::move(handler), std::move(predicates), std::nullopt});
    return *this;
}

ControllerBuilder &ControllerBuilder::watches(const GroupVersionKind &gvk, MapFunc map, QList<Predicate> predicates)
{
    return watches(gvk, enqueueRequestsFromMapFunc(std::move(map)), std::move(predicates));
}

ControllerBuilder &ControllerBuilder::watchesAsync(
    const GroupVersionKind &gvk, AsyncMapFunc map, QList<Predicate> predicates)
{
    return watches(gvk, enqueueRequestsFromAsyncMapFunc(std::move(map)), std::move(predicates));
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

void ControllerBuilder::mapTypedKinds()
{
    if (!m_cache)
        return;
    RestMapper &mapper = m_cache->mapper();
    for (const KindInfo &k : m_kinds) {
        if (mapper.forKind(k.gvk))
            continue;
        ResourceMapping m;
        m.gvr = k.gvr();
        m.kind = k.gvk.kind;
        m.namespaced = k.namespaced;
        mapper.add(m);
    }
}

Expected<Controller *> ControllerBuilder::build(std::shared_ptr<Reconciler> reconciler, QObject *parent)
{
    if (!m_error.isEmpty())
        return Status::badRequest(m_error);
    if (!m_cache)
        return Status::badRequest(QStringLiteral("ControllerBuilder: no cache (a null cache or manager was given)"));
    if (!reconciler)
        return Status::badRequest(QStringLiteral("ControllerBuilder: no reconciler"));
    mapTypedKinds();
    bool ownerNamespaced = true;
    if (m_for) {
        const auto ownerMapping = m_cache->mapper().forKind(*m_for);
        if (!ownerMapping)
            return unmappedKind(*m_for);
        ownerNamespaced = ownerMapping->namespaced;
        m_options.forKind = *m_for;
    } else {
        // No For kind (controller-runtime's Named() + Watches()): requests come from watches().
        if (std::any_of(
                m_watches.begin(), m_watches.end(), [](const Watch &w) { return w.ownsOnlyController.has_value(); }))
            return Status::badRequest(QStringLiteral("owns() can only be used together with forKind()"));
        if (m_watches.empty())
            return Status::badRequest(
                QStringLiteral("there are no watches configured, controller will never get triggered. "
                               "Use forKind(), owns() or watches() to set them up"));
        if (m_name.isEmpty() && m_options.name.isEmpty())
            return Status::badRequest(QStringLiteral("one of forKind() or named() must be called"));
    }
    if (!m_name.isEmpty())
        m_options.name = m_name;
    if (m_options.name.isEmpty())
        m_options.name = m_for->kind.toLower();
    // Check every kind before creating the controller, so a bad kind leaves nothing behind. The
    // informers themselves are created when the controller starts (or warms up).
    for (const Watch &w : m_watches)
        if (!m_cache->mapper().forKind(w.gvk))
            return unmappedKind(w.gvk);
    auto created = Controller::create(std::move(m_options), std::move(reconciler), parent);
    if (!created.ok())
        return created.error();
    Controller *c = *created;
    if (m_for)
        c->watch(
            informerSource(m_cache, *m_for), *m_for, enqueueRequestForObject(), m_globalPredicates + m_forPredicates);
    for (size_t i = 0; i < m_watches.size(); ++i) {
        Watch &w = m_watches[i];
        std::unique_ptr<EventHandler> handler = w.ownsOnlyController
            ? enqueueRequestForOwner(*m_for, ownerNamespaced, *w.ownsOnlyController)
            : std::move(w.handler);
        c->watch(
            informerSource(m_cache, w.gvk, w.projection), w.gvk, std::move(handler), m_globalPredicates + w.predicates);
    }
    m_watches.clear();
    return c;
}

ControllerBuilder &ControllerBuilder::owns(
    const GroupVersionKind &gvk, ObjectProjection projection, QList<Predicate> predicates, bool onlyController)
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

ControllerBuilder &ControllerBuilder::watches(
    const GroupVersionKind &gvk, ObjectProjection projection, MapFunc map, QList<Predicate> predicates)
{
    return watches(gvk, projection, enqueueRequestsFromMapFunc(std::move(map)), std::move(predicates));
}

} // namespace opbench

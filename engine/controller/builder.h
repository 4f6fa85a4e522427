// SPDX-License-Identifier: Apache-2.0
#pragma once
// ControllerBuilder: wires a Reconciler to the informers it needs (controller-runtime's builder).
//
//     auto ctrl = ControllerBuilder(cache)
//                     .forKind(myAppGvk, {predicates::generationChanged()})
//                     .owns(deploymentGvk)
//                     .build(reconciler, manager);
//
// - forKind(T): requests for T's own events (EnqueueRequestForObject); at most once.
// - owns(C): requests for the controlling owner of C objects when the owner is of kind T
//   (matched by group and kind, version ignored); needs forKind.
// - watches(K, handler | map function): anything else. A controller may have watches only
//   (no forKind), with a name given by named().
// - withEventFilter(p): a predicate applied to every watch (on top of per-watch predicates).
// The name defaults to the lower-cased For kind; it must be unique among live controllers.
// The kinds are checked at build(); their informers are created and started only when the
// controller starts (after the lease is won), or before with ControllerOptions::enableWarmup.

#include "engine/cache/informercache.h"
#include "engine/controller/controller.h"

#include <vector>

namespace opbench {

/// controller-runtime's builder.OnlyMetadata, for owns() and watches() (see below).
inline constexpr ObjectProjection OnlyMetadata = ObjectProjection::Metadata;

class ControllerBuilder
{
public:
    /// `cache` (not owned) provides the informers.
    explicit ControllerBuilder(InformerCache *cache);
    ~ControllerBuilder();
    ControllerBuilder(ControllerBuilder &&) noexcept;
    ControllerBuilder &operator=(ControllerBuilder &&) noexcept;

    ControllerBuilder &named(const QString &name);
    ControllerBuilder &forKind(const GroupVersionKind &gvk, QList<Predicate> predicates = {});
    /// owns(C, OnlyMetadata) / watches(K, OnlyMetadata, …): the kind is watched through the
    /// cache's metadata-only informer (PartialObjectMetadata lists and watches; handlers and
    /// predicates see objects with the kind's apiVersion/kind and metadata only), as
    /// controller-runtime's builder.OnlyMetadata: owner references, labels and resourceVersions
    /// are all an owner-tracking watch needs, and the cache does not hold the objects whole.
    ControllerBuilder &owns(const GroupVersionKind &gvk, ObjectProjection projection, QList<Predicate> predicates = {},
        bool onlyController = true);
    ControllerBuilder &watches(const GroupVersionKind &gvk, ObjectProjection projection,
        std::unique_ptr<EventHandler> handler, QList<Predicate> predicates = {});
    ControllerBuilder &watches(
        const GroupVersionKind &gvk, ObjectProjection projection, MapFunc map, QList<Predicate> predicates = {});

    /// `onlyController` false: every owner reference of the For kind, not just the controller.
    ControllerBuilder &owns(const GroupVersionKind &gvk, QList<Predicate> predicates = {}, bool onlyController = true);
    ControllerBuilder &watches(
        const GroupVersionKind &gvk, std::unique_ptr<EventHandler> handler, QList<Predicate> predicates = {});
    ControllerBuilder &watches(const GroupVersionKind &gvk, MapFunc map, QList<Predicate> predicates = {});
    /// A map function that may await a cached read (see AsyncMapFunc).
    ControllerBuilder &watchesAsync(const GroupVersionKind &gvk, AsyncMapFunc map, QList<Predicate> predicates = {});
    ControllerBuilder &withEventFilter(Predicate predicate);
    /// Options (name, concurrency, rate limiter, timeouts, queue kind, clock, metrics, logger).
    /// forKind and a name set with named() override the options' fields.
    ControllerBuilder &withOptions(ControllerOptions options);

    /// Builds the controller (not started: Controller::start(), usually by the manager).
    /// Errors: forKind given twice; neither forKind nor named(); no watch at all; owns() without
    /// forKind; a kind the cache cannot map; a duplicate name.
    Expected<Controller *> build(std::shared_ptr<Reconciler> reconciler, QObject *parent = nullptr);

private:
    struct Watch
    {
        GroupVersionKind gvk;
        std::unique_ptr<EventHandler> handler;
        QList<Predicate> predicates;
        std::optional<bool> ownsOnlyController; // set for owns()
        ObjectProjection projection = ObjectProjection::Normal;
    };

    InformerCache *m_cache;
    QString m_name;
    std::optional<GroupVersionKind> m_for;
    QList<Predicate> m_forPredicates;
    std::vector<Watch> m_watches;
    QList<Predicate> m_globalPredicates;
    ControllerOptions m_options;
    QString m_error; // first misuse, reported by build()
};

} // namespace opbench

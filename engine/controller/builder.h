// SPDX-License-Identifier: Apache-2.0
#pragma once
// ControllerBuilder: wires a Reconciler to the informers it needs (controller-runtime's builder).
//
// One step with a manager (ctrl.NewControllerManagedBy(mgr)…Complete(r)):
//
//     return ControllerBuilder(manager).forKind<Guestbook>().owns<ConfigMap>().owns<Service>()
//         .complete(std::make_shared<GuestbookReconciler>());
//
// complete() builds the controller, adds it to the manager and injects the manager's client and
// an event recorder ("<name>-controller") into the reconciler (Reconciler::client(),
// Reconciler::recorder()). Typed kinds (forKind<T>, owns<T>, watches<T>) read their
// GroupVersionKind from T::kindInfo(), and a kind the manager's REST mapper does not know yet is
// mapped from it.
//
// Or by hand, with a cache:
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

#include "engine/api/kind.h"
#include "engine/cache/informercache.h"
#include "engine/controller/controller.h"

#include <type_traits>

#include <vector>

namespace opbench {

class Manager;

/// controller-runtime's builder.OnlyMetadata, for owns() and watches() (see below).
inline constexpr ObjectProjection OnlyMetadata = ObjectProjection::Metadata;

class ControllerBuilder
{
public:
    /// `cache` (not owned) provides the informers.
    explicit ControllerBuilder(InformerCache *cache);
    /// The one-step form: the manager's cache, default options from the manager
    /// (maxConcurrentReconciles), and complete() (defined in engine/manager).
    explicit ControllerBuilder(Manager *manager);
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

    // Typed kinds: the GroupVersionKind (and, when unmapped, the REST mapping) from T::kindInfo().
    template<Kind T> ControllerBuilder &forKind(QList<Predicate> predicates = {})
    {
        m_kinds.push_back(T::kindInfo());
        return forKind(gvkOf<T>(), std::move(predicates));
    }
    template<Kind T> ControllerBuilder &owns(QList<Predicate> predicates = {}, bool onlyController = true)
    {
        m_kinds.push_back(T::kindInfo());
        return owns(gvkOf<T>(), std::move(predicates), onlyController);
    }
    template<Kind T> ControllerBuilder &owns(ObjectProjection projection, QList<Predicate> predicates = {})
    {
        m_kinds.push_back(T::kindInfo());
        return owns(gvkOf<T>(), projection, std::move(predicates));
    }
    template<Kind T> ControllerBuilder &watches(std::unique_ptr<EventHandler> handler, QList<Predicate> predicates = {})
    {
        m_kinds.push_back(T::kindInfo());
        return watches(gvkOf<T>(), std::move(handler), std::move(predicates));
    }
    /// Requests for the keys `map` gives for a T (called with the typed view).
    template<Kind T, class F>
    requires std::is_invocable_r_v<QList<QueueKey>, F &, const T &> ControllerBuilder &watches(
        F map, QList<Predicate> predicates = {})
    {
        m_kinds.push_back(T::kindInfo());
        MapFunc fn = [map](const Object &o) mutable { return map(T(o)); };
        return watches(gvkOf<T>(), std::move(fn), std::move(predicates));
    }

    /// Builds the controller (not started: Controller::start(), usually by the manager).
    /// Errors: forKind given twice; neither forKind nor named(); no watch at all; owns() without
    /// forKind; a kind the cache cannot map; a duplicate name.
    Expected<Controller *> build(std::shared_ptr<Reconciler> reconciler, QObject *parent = nullptr);
    /// With ControllerBuilder(manager): builds (parented to the manager), injects the manager's
    /// client and the recorder "<controller name>-controller" into `reconciler`, and adds the
    /// controller to the manager. Errors: those of build(); a builder not made from a manager.
    Expected<void> complete(std::shared_ptr<Reconciler> reconciler);

private:
    struct Watch
    {
        GroupVersionKind gvk;
        std::unique_ptr<EventHandler> handler;
        QList<Predicate> predicates;
        std::optional<bool> ownsOnlyController; // set for owns()
        ObjectProjection projection = ObjectProjection::Normal;
    };

    /// Maps the typed kinds the cache's mapper does not know yet.
    void mapTypedKinds();

    InformerCache *m_cache;
    Manager *m_manager = nullptr;
    std::vector<KindInfo> m_kinds; // typed kinds, for mapping
    QString m_name;
    std::optional<GroupVersionKind> m_for;
    QList<Predicate> m_forPredicates;
    std::vector<Watch> m_watches;
    QList<Predicate> m_globalPredicates;
    ControllerOptions m_options;
    QString m_error; // first misuse, reported by build()
};

} // namespace opbench

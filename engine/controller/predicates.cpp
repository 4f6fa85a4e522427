// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/predicates.h"

namespace opbench::predicates {

namespace {

/// A predicate that filters updates with `changed(old, new)` and lets every other event pass.
Predicate onUpdates(std::function<bool(const Object &, const Object &)> changed)
{
    return [changed = std::move(changed)](const ObjectEvent &e) {
        if (e.type != ObjectEvent::Type::Update)
            return true;
        if (e.oldObject.isNull() || e.object.isNull())
            return false;
        return changed(e.oldObject, e.object);
    };
}

} // namespace

Predicate generationChanged()
{
    return onUpdates([](const Object &o, const Object &n) { return o.generation() != n.generation(); });
}

Predicate resourceVersionChanged()
{
    return onUpdates([](const Object &o, const Object &n) { return o.resourceVersion() != n.resourceVersion(); });
}

Predicate labelChanged()
{
    return onUpdates([](const Object &o, const Object &n) { return o.labels() != n.labels(); });
}

Predicate annotationChanged()
{
    return onUpdates([](const Object &o, const Object &n) { return o.annotations() != n.annotations(); });
}

Predicate labelSelector(const LabelSelector &selector)
{
    return [selector](const ObjectEvent &e) { return selector.matches(e.object.labels()); };
}

Predicate allOf(QList<Predicate> ps)
{
    return [ps = std::move(ps)](const ObjectEvent &e) {
        for (const Predicate &p : ps)
            if (!p(e))
                return false;
        return true;
    };
}

Predicate anyOf(QList<Predicate> ps)
{
    return [ps = std::move(ps)](const ObjectEvent &e) {
        for (const Predicate &p : ps)
            if (p(e))
                return true;
        return false;
    };
}

Predicate negate(Predicate p)
{
    return [p = std::move(p)](const ObjectEvent &e) { return !p(e); };
}

} // namespace opbench::predicates

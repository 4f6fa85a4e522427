// SPDX-License-Identifier: Apache-2.0
#pragma once
// KindInfo and the Kind concept: a typed view knows its kind (SDK 0.3).
//
// Every typed view, built-in (Deployment, ConfigMap, Service, …) or the author's own
// (Guestbook), says which kind it is with a static kindInfo(): its GroupVersionKind and its REST
// facts (plural resource, scope). Typed client calls (`client.get<Guestbook>(ctx, key)`), the
// controller builder (`forKind<Guestbook>().owns<ConfigMap>()`) and the definition's kind list
// read it from there, so no author spells a GroupVersionKind for a kind they have a type for.
//
//     class Guestbook : public ObjectView {
//     public:
//         static const KindInfo &kindInfo();   // webapp.example.org/v1 Guestbook, "guestbooks"
//         explicit Guestbook(const Object &o);
//         …
//     };

#include "engine/api/gvk.h"
#include "engine/api/object.h"

#include <concepts>

namespace opbench {

/// A kind's identity and REST facts. Not an aggregate (see gvk.h).
struct KindInfo
{
    KindInfo(GroupVersionKind kind, QString plural, bool isNamespaced = true)
        : gvk(std::move(kind))
        , resource(std::move(plural))
        , namespaced(isNamespaced)
    { }
    GroupVersionKind gvk;
    QString resource; ///< the plural, lower case ("deployments")
    bool namespaced = true;

    [[nodiscard]] GroupVersionResource gvr() const { return {gvk.group, gvk.version, resource}; }
    [[nodiscard]] QString apiVersion() const { return gvk.apiVersion(); }
};

/// A typed view of one kind: constructible from an Object, convertible back, and knowing its kind.
template<class T>
concept Kind = requires(const T &view, const Object &object)
{
    {
        T::kindInfo()
        } -> std::convertible_to<const KindInfo &>;
    T(object);
    {
        view.toObject()
        } -> std::convertible_to<Object>;
};

/// The GroupVersionKind of a typed view.
template<Kind T> const GroupVersionKind &gvkOf() { return T::kindInfo().gvk; }

} // namespace opbench

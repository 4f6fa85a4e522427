// SPDX-License-Identifier: Apache-2.0
#pragma once
// CustomResource<Self, Spec, Status>: the typed view of an author's own kind, with real C++
// fields `spec` and `status` (described structs, see fields.h) instead of path accessors:
//
//     class Guestbook : public opbench::CustomResource<Guestbook, GuestbookSpec, GuestbookStatus>
//     {
//     public:
//         using CustomResource::CustomResource;
//         OPBENCH_KIND("webapp.example.org", "v1", "Guestbook", "guestbooks")
//         static void describeCrd(opbench::CrdOptions &crd)          // optional (crdgen.h)
//         {
//             crd.shortNames = {QStringLiteral("gb")};
//             crd.printerColumn(QStringLiteral("Title"), QStringLiteral("string"), QStringLiteral(".spec.title"));
//         }
//     };
//
//     Guestbook gb(QStringLiteral("default"), QStringLiteral("gb1"));   // a new object
//     gb.spec.title = QStringLiteral("Hello");
//     Object o = gb.toObject();                  // spec and status written into the document
//     Guestbook read(o);                         // spec and status decoded from it
//     read.decodeResult();                       // what could not be decoded, with field paths
//
// It satisfies opbench::Kind (kind.h), so the typed client, the controller builder and the
// definition take it like any built-in view, and crdFor<Guestbook>() (crdgen.h) generates its
// CustomResourceDefinition from the same descriptions.
//
// The view keeps the whole document: toObject() writes the described fields of spec and status
// over the document it was read from, so fields the description does not list (another
// version's, another writer's) survive a read-modify-write. Lists are written whole.
// Status may be void (or NoStatus): the kind then has no status and no status subresource.
//
// Note that ObjectView::json() and ObjectView::toObject() are hidden, not overridden: call them on
// the CustomResource type (or a template over it), not through an ObjectView reference, which
// sees the document as last read.

#include "engine/api/kind.h"
#include "engine/api/objectview.h"
#include "engine/api/typed/fields.h"

#include <type_traits>

namespace opbench {

/// The status of a kind that has none.
struct NoStatus
{
    static void describe(Fields<NoStatus> & /*f*/) { }
    friend bool operator==(const NoStatus &, const NoStatus &) = default;
};

namespace typed {
template<class S> using StatusOrNone = std::conditional_t<std::is_void_v<S>, NoStatus, S>;
QString objectLabel(const QJsonObject &document);
bool kindMatches(const QJsonObject &document, const GroupVersionKind &gvk);
} // namespace typed

template<class Self, Described Spec, class StatusT = NoStatus> class CustomResource : public ObjectView
{
public:
    using SpecType = Spec;
    using StatusType = typed::StatusOrNone<StatusT>;
    static_assert(Described<StatusType>,
        "opbench::CustomResource: Status needs `static void describe(opbench::Fields<Status> &)` (or use void)");
    static constexpr bool kHasStatus = !std::is_same_v<StatusType, NoStatus>;

    /// A new object of this kind: apiVersion and kind set, no name yet.
    CustomResource()
        : ObjectView(Self::kindInfo().apiVersion(), Self::kindInfo().gvk.kind)
    { }
    /// A new object `name` in `namespaceName` (empty for a cluster-scoped kind).
    CustomResource(const QString &namespaceName, const QString &name)
        : CustomResource()
    {
        if (!namespaceName.isEmpty())
            meta().setNamespace(namespaceName);
        meta().setName(name);
    }
    /// A view of `object`; spec and status are decoded from it (see decodeResult()).
    explicit CustomResource(const Object &object)
        : ObjectView(object)
    {
        decode();
    }

    Spec spec{};
    StatusType status{};

    /// The document with spec and status written over it.
    QJsonObject json() const
    {
        QJsonObject doc = m_json;
        doc.insert(QLatin1String("spec"),
            describedFields<Spec>().encode(spec, m_json.value(QLatin1String("spec")).toObject()));
        if constexpr (kHasStatus) {
            const QJsonValue old = m_json.value(QLatin1String("status"));
            const QJsonObject written = describedFields<StatusType>().encode(status, old.toObject());
            if (!written.isEmpty() || old.isObject())
                doc.insert(QLatin1String("status"), written);
        }
        return doc;
    }
    /// A new Object from json().
    Object toObject() const { return Object::fromJson(json()); }

    /// Success, or a DecodeError listing each field of the object that could not be read into
    /// spec or status (those keep their C++ defaults), or a kind mismatch.
    const Expected<void> &decodeResult() const { return m_decoded; }
    /// The view of `object`, or decodeResult()'s error.
    static Expected<Self> fromObject(const Object &object)
    {
        Self view(object);
        if (!view.decodeResult())
            return view.decodeResult().error();
        return view;
    }

    /// Same spec and status (metadata is not compared).
    friend bool operator==(const CustomResource &a, const CustomResource &b)
    {
        return a.spec == b.spec && a.status == b.status;
    }

private:
    void decode()
    {
        if (m_json.isEmpty())
            return;
        const GroupVersionKind &gvk = Self::kindInfo().gvk;
        if (!typed::kindMatches(m_json, gvk)) {
            m_decoded = Status(0, QString::fromLatin1(StatusReason::DecodeError),
                QStringLiteral("cannot decode %1 as %2").arg(typed::objectLabel(m_json), gvk.toString()));
            return;
        }
        DecodeErrors errors;
        decodePart(QStringLiteral("spec"), spec, errors);
        if constexpr (kHasStatus)
            decodePart(QStringLiteral("status"), status, errors);
        if (!errors.isEmpty())
            m_decoded = errors.toStatus(QStringLiteral("cannot decode ") + typed::objectLabel(m_json));
    }
    template<class Part> void decodePart(const QString &key, Part &out, DecodeErrors &errors) const
    {
        const QJsonValue v = m_json.value(key);
        if (v.isUndefined() || v.isNull())
            describedFields<Part>().decode(QJsonObject(), out, key, errors); // defaults only
        else
            FieldCodec<Part>::decode(v, out, key, errors);
    }

    Expected<void> m_decoded;
};

} // namespace opbench

/// Defines `static const opbench::KindInfo &kindInfo()` for a namespaced kind, in a class body:
/// OPBENCH_KIND("webapp.example.org", "v1", "Guestbook", "guestbooks").
#define OPBENCH_KIND(group, version, kind, plural) OPBENCH_KIND_SCOPED(group, version, kind, plural, true)
/// The same for a cluster-scoped kind.
#define OPBENCH_CLUSTER_KIND(group, version, kind, plural) OPBENCH_KIND_SCOPED(group, version, kind, plural, false)
#define OPBENCH_KIND_SCOPED(group, version, kind, plural, namespaced)                                                  \
    static const ::opbench::KindInfo &kindInfo()                                                                       \
    {                                                                                                                  \
        static const ::opbench::KindInfo info(::opbench::GroupVersionKind(QString::fromUtf8((group)),                  \
                                                  QString::fromUtf8((version)), QString::fromUtf8((kind))),            \
            QString::fromUtf8((plural)), (namespaced));                                                                \
        return info;                                                                                                   \
    }

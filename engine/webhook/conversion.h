// SPDX-License-Identifier: Apache-2.0
#pragma once
// Conversion webhooks: controller-runtime's hub and spokes (pkg/conversion, pkg/webhook/conversion).
//
// One version of a kind is the hub (its typed view derives from opbench::Hub); every other
// version is a spoke converting to and from it:
//
//     class GuestbookV2 : public CustomResource<GuestbookV2, SpecV2>, public opbench::Hub { … };
//     class GuestbookV1 : public CustomResource<GuestbookV1, SpecV1> {
//     public:
//         Expected<void> convertTo(GuestbookV2 &hub) const;     // spec and status; metadata is copied
//         Expected<void> convertFrom(const GuestbookV2 &hub);
//     };
//
// ConversionRegistry serves ConversionReview v1 at /convert: each of request.objects is converted
// spoke → hub → spoke to request.desiredAPIVersion; the response echoes the uid and carries
// convertedObjects with result {status: Success}, or no objects and {status: Failure, message}
// naming the object and why (an unknown kind or version, a failed conversion). A body that is
// not a ConversionReview gets HTTP 400 with a message. checkRoundTrip(spoke) is the test helper:
// spoke → hub → spoke must give the spoke back.

#include "engine/api/kind.h"
#include "engine/webhook/jsonpatch.h"
#include "engine/webhook/webhookserver.h"

#include <QJsonDocument>

#include <map>

namespace opbench {

/// controller-runtime's conversion.Hub marker.
struct Hub
{
};

template<class T>
concept HubKind = Kind<T> && std::derived_from<T, Hub>;

namespace detail {
template<class S, class H> H hubOfConvertFrom(Expected<void> (S::*)(const H &));
/// A document with the kind's apiVersion and kind and `source`'s metadata, nothing else.
QJsonObject metadataOnly(const QJsonObject &source, const GroupVersionKind &gvk);
Expected<QJsonObject> viewJson(const Object &object, const Expected<void> &decoded);
} // namespace detail

/// The hub a spoke converts through (the parameter of its convertFrom).
template<class S> using HubOf = decltype(detail::hubOfConvertFrom(&S::convertFrom));

/// One kind's versions: the hub and its spokes, type-erased.
class KindConversion
{
public:
    using Step = std::function<Expected<QJsonObject>(const QJsonObject &)>;

    template<HubKind H> static KindConversion forHub()
    {
        KindConversion c;
        c.m_gvk = gvkOf<H>();
        return c;
    }
    /// An empty conversion for the hub `hub` (spokes added by merge()).
    static KindConversion forHubOf(const GroupVersionKind &hub)
    {
        KindConversion c;
        c.m_gvk = hub;
        return c;
    }
    template<Kind S> void addSpokeOf()
    {
        using H = HubOf<S>;
        static_assert(HubKind<H>, "opbench: a spoke's convertFrom must take its hub (a view deriving opbench::Hub)");
        addVersion(gvkOf<S>(), gvkOf<H>(), &spokeToHub<S, H>, &hubToSpoke<S, H>);
    }

    [[nodiscard]] const GroupVersionKind &hub() const { return m_gvk; }
    [[nodiscard]] QStringList versions() const;
    /// `object` (of this kind, any known version) at `desiredApiVersion`.
    Expected<QJsonObject> convert(const QJsonObject &object, const QString &desiredApiVersion) const;
    /// Adds the other's spokes (same hub); errors name a different hub.
    Expected<void> merge(const KindConversion &other);

    // The steps addSpokeOf() registers; public for checkRoundTrip().
    /// `json` read as From, converted by `convert` into a To carrying the same metadata.
    template<Kind From, Kind To, class Convert>
    static Expected<QJsonObject> step(const QJsonObject &json, Convert convert)
    {
        From from(Object::fromJson(json));
        if constexpr (requires { from.decodeResult(); })
            if (!from.decodeResult())
                return from.decodeResult().error();
        To to(Object::fromJson(detail::metadataOnly(json, gvkOf<To>())));
        if (Expected<void> ok = convert(from, to); !ok)
            return ok.error();
        return to.toObject().json();
    }
    template<Kind S, Kind H> static Expected<QJsonObject> spokeToHub(const QJsonObject &json)
    {
        return step<S, H>(json, [](const S &spoke, H &hub) { return spoke.convertTo(hub); });
    }
    template<Kind S, Kind H> static Expected<QJsonObject> hubToSpoke(const QJsonObject &json)
    {
        return step<H, S>(json, [](const H &hub, S &spoke) { return spoke.convertFrom(hub); });
    }

private:
    void addVersion(const GroupVersionKind &spoke, const GroupVersionKind &hub, Step toHub, Step fromHub);

    GroupVersionKind m_gvk;
    std::map<QString, std::pair<Step, Step>> m_spokes; // version → (to hub, from hub)
    QString m_error;
};

/// The kinds a webhook server converts, served at /convert (a child of the server).
class ConversionRegistry : public QObject
{
    Q_OBJECT
public:
    /// The server's registry, created and registered at /convert on first use.
    static Expected<ConversionRegistry *> of(WebhookServer *server);
    Expected<void> add(const KindConversion &conversion);
    /// Serves one HTTP request (a ConversionReview).
    WebhookReply serve(const WebhookRequest &request) const;
    /// Converts `objects` to `desiredApiVersion` (what /convert does for a review's request).
    Expected<QJsonArray> convert(const QJsonArray &objects, const QString &desiredApiVersion) const;

private:
    explicit ConversionRegistry(QObject *parent);
    std::map<QString, KindConversion> m_kinds; // "Kind.group"
};

/// spoke → hub → spoke gives `spoke` back; the error lists what changed (as a JSON patch).
template<Kind S> Expected<void> checkRoundTrip(const S &spoke)
{
    using H = HubOf<S>;
    const QJsonObject original = spoke.toObject().json();
    Expected<QJsonObject> hub = KindConversion::spokeToHub<S, H>(original);
    if (!hub)
        return hub.error();
    Expected<QJsonObject> back = KindConversion::hubToSpoke<S, H>(*hub);
    if (!back)
        return back.error();
    const QJsonArray changes = createJsonPatch(original, *back);
    if (changes.isEmpty())
        return {};
    return Status::badRequest(QStringLiteral("%1 → %2 → %1 is not the original: %3")
                                  .arg(gvkOf<S>().apiVersion(), gvkOf<H>().apiVersion(),
                                      QString::fromUtf8(QJsonDocument(changes).toJson(QJsonDocument::Compact))));
}

} // namespace opbench

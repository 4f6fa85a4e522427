// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookBuilder: controller-runtime's ctrl.NewWebhookManagedBy(mgr).For(&X{})…Complete().
//
//     WebhookBuilder(manager).forKind<Guestbook>()
//         .withDefaulter(std::make_shared<GuestbookDefaulter>())
//         .withValidator(std::make_shared<GuestbookValidator>())
//         .complete();
//
// registers the defaulter at kubebuilder's path /mutate-webapp-example-org-v1-guestbook and the
// validator at /validate-webapp-example-org-v1-guestbook on the manager's webhook server, which
// the manager then starts (ManagerOptions: webhookPort, webhookCertDir, webhookHost). With a
// hub kind, withConversion<Spoke>() also serves /convert for the spoke's version (conversion.h).
// Misuse (no forKind, a defaulter of another kind, nothing to register, a path registered
// twice) is reported by complete().

#include "engine/webhook/conversion.h"
#include "engine/webhook/customwebhook.h"
#include "engine/webhook/webhookserver.h"

#include <optional>

namespace opbench {

class Manager;

class WebhookBuilder
{
public:
    explicit WebhookBuilder(WebhookServer *server);
    /// The manager's webhook server (defined in engine/manager).
    explicit WebhookBuilder(Manager *manager);

    template<Kind T> WebhookBuilder &forKind()
    {
        if (m_kind)
            m_error
                = QStringLiteral("forKind() given twice (%1, then %2)").arg(m_kind->toString(), gvkOf<T>().toString());
        m_kind = gvkOf<T>();
        if constexpr (HubKind<T>)
            m_conversion = KindConversion::forHub<T>();
        return *this;
    }
    template<class D>
    requires std::derived_from<D, CustomDefaulter<typename D::KindType>> WebhookBuilder &withDefaulter(
        std::shared_ptr<D> defaulter, bool removeUnknownOrOmitableFields = false)
    {
        using T = typename D::KindType;
        checkKind(gvkOf<T>(), "withDefaulter");
        m_defaulting = defaultingHandler<T>(std::move(defaulter), removeUnknownOrOmitableFields);
        return *this;
    }
    template<class V>
    requires std::derived_from<V, CustomValidator<typename V::KindType>> WebhookBuilder &withValidator(
        std::shared_ptr<V> validator)
    {
        using T = typename V::KindType;
        checkKind(gvkOf<T>(), "withValidator");
        m_validating = validatingHandler<T>(std::move(validator));
        return *this;
    }
    /// Serves conversions between the forKind hub and `Spoke` at /convert.
    template<Kind Spoke> WebhookBuilder &withConversion()
    {
        if (!m_conversion)
            m_error = QStringLiteral("withConversion<%1>(): forKind() must name the hub (a view deriving opbench::Hub)")
                          .arg(gvkOf<Spoke>().toString());
        else
            m_conversion->addSpokeOf<Spoke>();
        m_converts = true;
        return *this;
    }

    /// Registers the webhooks on the server. Errors as in the header comment.
    Expected<void> complete();

private:
    void checkKind(const GroupVersionKind &gvk, const char *what);

    WebhookServer *m_server = nullptr;
    std::optional<GroupVersionKind> m_kind;
    std::optional<KindConversion> m_conversion; // forKind is a hub
    bool m_converts = false;
    AdmissionHandler m_defaulting;
    AdmissionHandler m_validating;
    QString m_error;
};

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#pragma once
// ServiceAccount (core/v1): the identity a pod template names in serviceAccountName.

#include "engine/api/kind.h"
#include "engine/api/objectview.h"

#include <optional>

namespace opbench {

class ServiceAccount : public ObjectView
{
public:
    /// v1 ServiceAccount, "serviceaccounts", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty v1 ServiceAccount.
    ServiceAccount();
    /// A new v1 ServiceAccount `name` in `namespaceName`.
    ServiceAccount(const QString &namespaceName, const QString &name);
    explicit ServiceAccount(const Object &object)
        : ObjectView(object)
    { }

    /// automountServiceAccountToken; unset when absent (the pod's setting decides).
    std::optional<bool> automountServiceAccountToken() const;
    void setAutomountServiceAccountToken(bool automount) { setAt({"automountServiceAccountToken"}, automount); }
    /// imagePullSecrets[].name
    QStringList imagePullSecrets() const;
    /// Sets imagePullSecrets to exactly these names; an empty list removes the field.
    void setImagePullSecrets(const QStringList &names);
};

} // namespace opbench

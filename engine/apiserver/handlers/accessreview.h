// SPDX-License-Identifier: Apache-2.0
#pragma once
// Access reviews, answered from the authorizer's rules (auth.h, accessrules.h), never stored:
//   authorization.k8s.io/v1 SelfSubjectAccessReview   `kubectl auth can-i create deployments`
//   authorization.k8s.io/v1 SelfSubjectRulesReview    `kubectl auth can-i --list`
//   authorization.k8s.io/v1 SubjectAccessReview       (who may create it: admin; any user named)
//   authorization.k8s.io/v1 LocalSubjectAccessReview  (namespaced; must match the URL namespace)
//   authentication.k8s.io/v1 SelfSubjectReview        `kubectl auth whoami` (also v1beta1: kubectl 1.27)
// Only POST (create) is served: 201 with the request echoed and its status filled in.

#include "engine/apiserver/auth/auth.h"
#include "engine/apiserver/http/exchange.h"
#include "engine/apiserver/http/requestinfo.h"

namespace opbench::apiserver {

class AccessReviews
{
public:
    explicit AccessReviews(const Authorizer *auth)
        : m_auth(auth)
    { }

    /// True when `info` addresses one of the review resources above.
    static bool isReview(const RequestInfo &info);
    /// Serves a review request (isReview(info)); `request.user` is the authenticated user.
    void handle(const Request &request, const RequestInfo &info, Responder responder) const;

private:
    const Authorizer *m_auth;
};

} // namespace opbench::apiserver

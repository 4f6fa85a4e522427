// SPDX-License-Identifier: Apache-2.0
#pragma once
// MyApplication's webhooks (kubebuilder's `create webhook --defaulting --programmatic-validation
// --conversion`), registered by setupWebhooksWithManager():
//
//   defaulting (/mutate-example-com-v1alpha1-myapplication): sets the recommended labels the
//     operator puts on the app's Deployment when absent, app.kubernetes.io/name=myapplication
//     and app.kubernetes.io/instance=<name>, so `-l app.kubernetes.io/instance=web` selects the
//     app together with its Deployment and Pods;
//   validating (/validate-example-com-v1alpha1-myapplication): spec.image must carry a tag or a
//     digest (the schema cannot say it): "nginx" is refused on create and update,
//     "nginx:1.27" and "nginx@sha256:…" are allowed;
//   conversion (/convert): v1beta1 ⇄ v1alpha1, the hub (myapplicationv1beta1.h).

#include "engine/api/expected.h"
#include "engine/operator/myapplication.h"
#include "engine/webhook/customwebhook.h"

namespace opbench {
class Manager;
} // namespace opbench

namespace opbench::myapp {

class MyApplicationDefaulter : public CustomDefaulter<MyApplication>
{
public:
    Expected<void> applyDefaults(MyApplication &app) override;
};

class MyApplicationValidator : public CustomValidator<MyApplication>
{
public:
    ValidationResult validateCreate(const MyApplication &app) override;
    ValidationResult validateUpdate(const MyApplication &oldApp, const MyApplication &app) override;
    ValidationResult validateDelete(const MyApplication &app) override;
};

/// The spec.image rule: no causes when `image` has a tag or a digest.
QList<StatusCause> validateImage(const QString &image);

/// Registers the three webhooks on the manager's webhook server (OperatorDefinition::webhooks).
Expected<void> setupWebhooksWithManager(Manager *manager);

} // namespace opbench::myapp

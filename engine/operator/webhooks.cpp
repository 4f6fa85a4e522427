// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/webhooks.h"

#include "engine/api/validation.h"
#include "engine/operator/myapplicationv1beta1.h"
#include "engine/webhook/webhookbuilder.h"

namespace opbench::myapp {

Expected<void> MyApplicationDefaulter::applyDefaults(MyApplication &app)
{
    const Labels labels = app.labels();
    if (!labels.contains(QStringLiteral("app.kubernetes.io/name")))
        app.meta().setLabel(QStringLiteral("app.kubernetes.io/name"), QStringLiteral("myapplication"));
    if (!labels.contains(QStringLiteral("app.kubernetes.io/instance")) && !app.name().isEmpty())
        app.meta().setLabel(QStringLiteral("app.kubernetes.io/instance"), app.name());
    return {};
}

QList<StatusCause> validateImage(const QString &image)
{
    if (image.isEmpty())
        return {}; // the schema requires it and says so
    const ImageReference ref = ImageReference::parse(image);
    if (!ref.tag.isEmpty() || !ref.digest.isEmpty())
        return {};
    return {fielderror::invalid(QStringLiteral("spec.image"), image,
        QStringLiteral("must carry a tag or a digest (e.g. %1:1.27 or %1@sha256:<hex>)").arg(ref.repository))};
}

namespace {

ValidationResult checked(const MyApplication &app)
{
    const QList<StatusCause> causes = validateImage(app.image());
    return causes.isEmpty() ? ValidationResult::allowed() : ValidationResult::invalid(causes);
}

} // namespace

ValidationResult MyApplicationValidator::validateCreate(const MyApplication &app) { return checked(app); }

ValidationResult MyApplicationValidator::validateUpdate(const MyApplication &, const MyApplication &app)
{
    return checked(app);
}

ValidationResult MyApplicationValidator::validateDelete(const MyApplication &) { return ValidationResult::allowed(); }

Expected<void> setupWebhooksWithManager(Manager *manager)
{
    return WebhookBuilder(manager)
        .forKind<MyApplication>()
        .withDefaulter(std::make_shared<MyApplicationDefaulter>())
        .withValidator(std::make_shared<MyApplicationValidator>())
        .withConversion<MyApplicationV1beta1>()
        .complete();
}

} // namespace opbench::myapp

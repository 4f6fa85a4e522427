// SPDX-License-Identifier: Apache-2.0
#pragma once
// CustomDefaulter<T> and CustomValidator<T>: controller-runtime's admission.CustomDefaulter and
// CustomValidator for a typed kind T (a built-in view or a CustomResource):
//
//     class GuestbookDefaulter : public opbench::CustomDefaulter<Guestbook> {
//         opbench::Expected<void> applyDefaults(Guestbook &gb) override { … return {}; }
//     };
//     class GuestbookValidator : public opbench::CustomValidator<Guestbook> {
//         opbench::ValidationResult validateCreate(const Guestbook &gb) override
//         {
//             if (gb.spec.replicas > 10)
//                 return opbench::ValidationResult::invalid(
//                     {opbench::fielderror::invalidRaw(QStringLiteral("spec.replicas"), QStringLiteral("11"),
//                         QStringLiteral("must be at most 10"))});
//             return opbench::ValidationResult::allowed({QStringLiteral("replicas is high")});
//         }
//         …validateUpdate(old, new), validateDelete(obj)
//     };
//
// The defaulter's answer is the JSON patch from the request's object to the defaulted object
// (createJsonPatch). As controller-runtime, "remove" operations are dropped unless
// removeUnknownOrOmitableFields is set, and DELETE requests are allowed without calling it.
// A validator's denial answers 403 Forbidden with its message; invalid(causes) answers 422
// Invalid worded as the API server words a field.ErrorList ("Guestbook.webapp.example.org \"gb\"
// is invalid: spec.replicas: Invalid value: 11: must be at most 10"); warnings go with both.

#include "engine/api/kind.h"
#include "engine/api/validation.h"
#include "engine/webhook/admissionwebhook.h"

#include <memory>
#include <optional>

namespace opbench {

/// What a validation call answers: warnings, and an error when the request is refused.
class ValidationResult
{
public:
    ValidationResult() = default;
    static ValidationResult allowed(QStringList warnings = {});
    /// Refused with 403 Forbidden and `message`.
    static ValidationResult denied(const QString &message, QStringList warnings = {});
    /// Refused with 422 Invalid: the causes (fielderror::…) with the object's kind and name.
    static ValidationResult invalid(const QList<StatusCause> &causes, QStringList warnings = {});
    /// Refused with `status` as given (any API status).
    static ValidationResult failed(const Status &status, QStringList warnings = {});

    [[nodiscard]] bool isAllowed() const { return !m_error.has_value(); }
    [[nodiscard]] const QStringList &warnings() const { return m_warnings; }
    [[nodiscard]] const std::optional<Status> &error() const { return m_error; }

private:
    QStringList m_warnings;
    std::optional<Status> m_error;
};

template<Kind T> class CustomDefaulter
{
public:
    using KindType = T;
    virtual ~CustomDefaulter() = default;
    /// Sets the defaults on `object`. An error refuses the request (403 with its message, or
    /// the Status as given when it has a code).
    virtual Expected<void> applyDefaults(T &object) = 0;

protected:
    CustomDefaulter() = default;
    CustomDefaulter(const CustomDefaulter &) = default;
    CustomDefaulter &operator=(const CustomDefaulter &) = default;
    CustomDefaulter(CustomDefaulter &&) noexcept = default;
    CustomDefaulter &operator=(CustomDefaulter &&) noexcept = default;
};

template<Kind T> class CustomValidator
{
public:
    using KindType = T;
    virtual ~CustomValidator() = default;
    virtual ValidationResult validateCreate(const T &object) = 0;
    virtual ValidationResult validateUpdate(const T &oldObject, const T &newObject) = 0;
    virtual ValidationResult validateDelete(const T &object) = 0;

protected:
    CustomValidator() = default;
    CustomValidator(const CustomValidator &) = default;
    CustomValidator &operator=(const CustomValidator &) = default;
    CustomValidator(CustomValidator &&) noexcept = default;
    CustomValidator &operator=(CustomValidator &&) noexcept = default;
};

/// kubebuilder's webhook paths: "/mutate-<group, dots as dashes>-<version>-<lower-case kind>".
QString mutatePath(const GroupVersionKind &gvk);
QString validatePath(const GroupVersionKind &gvk);

namespace detail {
/// The document's typed view is readable: Success, or the 400 answer saying why not.
std::optional<AdmissionResponse> undecodable(
    const QJsonObject &document, const GroupVersionKind &gvk, const Expected<void> &decoded, const char *which);
AdmissionResponse defaultedResponse(const QJsonObject &before, const QJsonObject &after, bool keepRemovals);
AdmissionResponse refusedByDefaulter(const Status &error);
AdmissionResponse validationResponse(const ValidationResult &result, const GroupVersionKind &gvk, const QString &name);

template<Kind T> Expected<void> decodeResultOf(const T &view)
{
    if constexpr (requires { view.decodeResult(); })
        return view.decodeResult();
    else
        return {};
}
} // namespace detail

/// The admission handler calling `defaulter` (see the header comment).
template<Kind T>
AdmissionHandler defaultingHandler(
    std::shared_ptr<CustomDefaulter<T>> defaulter, bool removeUnknownOrOmitableFields = false)
{
    return [defaulter, removeUnknownOrOmitableFields](const AdmissionRequest &request) -> AdmissionResponse {
        if (request.operation == QLatin1String("DELETE"))
            return AdmissionResponse::allowedResponse(); // nothing to default on a DELETE
        T view(Object::fromJson(request.object));
        if (auto bad = detail::undecodable(request.object, gvkOf<T>(), detail::decodeResultOf(view), "object"))
            return *bad;
        if (Expected<void> ok = defaulter->applyDefaults(view); !ok)
            return detail::refusedByDefaulter(ok.error());
        return detail::defaultedResponse(request.object, view.toObject().json(), removeUnknownOrOmitableFields);
    };
}

/// The admission handler calling `validator` for CREATE, UPDATE and DELETE.
template<Kind T> AdmissionHandler validatingHandler(std::shared_ptr<CustomValidator<T>> validator)
{
    return [validator](const AdmissionRequest &request) -> AdmissionResponse {
        const bool isDelete = request.operation == QLatin1String("DELETE");
        const QJsonObject &doc = isDelete ? request.oldObject : request.object;
        T view(Object::fromJson(doc));
        if (auto bad
            = detail::undecodable(doc, gvkOf<T>(), detail::decodeResultOf(view), isDelete ? "oldObject" : "object"))
            return *bad;
        ValidationResult result;
        if (request.operation == QLatin1String("CREATE")) {
            result = validator->validateCreate(view);
        } else if (request.operation == QLatin1String("UPDATE")) {
            T old(Object::fromJson(request.oldObject));
            if (auto bad = detail::undecodable(request.oldObject, gvkOf<T>(), detail::decodeResultOf(old), "oldObject"))
                return *bad;
            result = validator->validateUpdate(old, view);
        } else if (isDelete) {
            result = validator->validateDelete(view);
        } else {
            return AdmissionResponse::errored(400, QStringLiteral("unknown operation \"%1\"").arg(request.operation));
        }
        return detail::validationResponse(result, gvkOf<T>(), view.name());
    };
}

} // namespace opbench

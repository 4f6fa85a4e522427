// SPDX-License-Identifier: Apache-2.0
#include "engine/api/status.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench {

namespace {
QString qualified(const QString &group, const QString &resource)
{
    return group.isEmpty() ? resource : resource + u'.' + group;
}
} // namespace

Status::Status(int code, QString reason, QString message, StatusDetails details)
    : m_code(code)
    , m_reason(std::move(reason))
    , m_message(std::move(message))
    , m_details(std::move(details))
{ }

QString Status::reasonForCode(int code)
{
    switch (code) {
    case 400:
        return QString::fromLatin1(StatusReason::BadRequest);
    case 401:
        return QString::fromLatin1(StatusReason::Unauthorized);
    case 403:
        return QString::fromLatin1(StatusReason::Forbidden);
    case 404:
        return QString::fromLatin1(StatusReason::NotFound);
    case 405:
        return QString::fromLatin1(StatusReason::MethodNotAllowed);
    case 406:
        return QString::fromLatin1(StatusReason::NotAcceptable);
    case 409:
        return QString::fromLatin1(StatusReason::Conflict);
    case 410:
        return QString::fromLatin1(StatusReason::Gone);
    case 413:
        return QString::fromLatin1(StatusReason::RequestEntityTooLarge);
    case 415:
        return QString::fromLatin1(StatusReason::UnsupportedMediaType);
    case 422:
        return QString::fromLatin1(StatusReason::Invalid);
    case 429:
        return QString::fromLatin1(StatusReason::TooManyRequests);
    case 500:
        return QString::fromLatin1(StatusReason::InternalError);
    case 503:
        return QString::fromLatin1(StatusReason::ServiceUnavailable);
    case 504:
        return QString::fromLatin1(StatusReason::Timeout);
    default:
        return code >= 500 ? QString::fromLatin1(StatusReason::InternalError) : QString();
    }
}

Status Status::fromJson(const QJsonObject &obj, int httpCode)
{
    Status s;
    s.m_code = obj.value(QLatin1String("code")).toInt(httpCode);
    if (s.m_code == 0)
        s.m_code = httpCode;
    s.m_reason = obj.value(QLatin1String("reason")).toString();
    if (s.m_reason.isEmpty())
        s.m_reason = reasonForCode(s.m_code);
    s.m_message = obj.value(QLatin1String("message")).toString();
    s.m_continue = obj.value(QLatin1String("metadata")).toObject().value(QLatin1String("continue")).toString();
    const QJsonObject d = obj.value(QLatin1String("details")).toObject();
    s.m_details.name = d.value(QLatin1String("name")).toString();
    s.m_details.group = d.value(QLatin1String("group")).toString();
    s.m_details.kind = d.value(QLatin1String("kind")).toString();
    s.m_details.uid = d.value(QLatin1String("uid")).toString();
    s.m_details.retryAfterSeconds = d.value(QLatin1String("retryAfterSeconds")).toInt();
    for (const QJsonValue &c : d.value(QLatin1String("causes")).toArray()) {
        const QJsonObject co = c.toObject();
        s.m_details.causes.append({co.value(QLatin1String("reason")).toString(),
            co.value(QLatin1String("message")).toString(), co.value(QLatin1String("field")).toString()});
    }
    return s;
}

Status Status::fromHttp(int httpCode, const QByteArray &body)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    if (err.error == QJsonParseError::NoError && doc.isObject()
        && doc.object().value(QLatin1String("kind")).toString() == QLatin1String("Status")) {
        return fromJson(doc.object(), httpCode);
    }
    QString text = QString::fromUtf8(body.left(200)).trimmed();
    if (body.size() > 200)
        text += QLatin1String("…");
    QString message = text.isEmpty() ? QStringLiteral("the server responded with HTTP %1").arg(httpCode)
                                     : QStringLiteral("the server responded with HTTP %1: %2").arg(httpCode).arg(text);
    return Status(httpCode, reasonForCode(httpCode), message);
}

QJsonObject Status::toJson() const
{
    QJsonObject o;
    o.insert(QLatin1String("kind"), QLatin1String("Status"));
    o.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    QJsonObject meta;
    if (!m_continue.isEmpty())
        meta.insert(QLatin1String("continue"), m_continue);
    o.insert(QLatin1String("metadata"), meta);
    const bool success = m_code >= 200 && m_code < 300;
    o.insert(QLatin1String("status"), success ? QLatin1String("Success") : QLatin1String("Failure"));
    if (!m_message.isEmpty())
        o.insert(QLatin1String("message"), m_message);
    if (!m_reason.isEmpty())
        o.insert(QLatin1String("reason"), m_reason);
    QJsonObject d;
    if (!m_details.name.isEmpty())
        d.insert(QLatin1String("name"), m_details.name);
    if (!m_details.group.isEmpty())
        d.insert(QLatin1String("group"), m_details.group);
    if (!m_details.kind.isEmpty())
        d.insert(QLatin1String("kind"), m_details.kind);
    if (!m_details.uid.isEmpty())
        d.insert(QLatin1String("uid"), m_details.uid);
    if (!m_details.causes.isEmpty()) {
        QJsonArray causes;
        for (const StatusCause &c : m_details.causes) {
            QJsonObject co;
            co.insert(QLatin1String("reason"), c.reason);
            co.insert(QLatin1String("message"), c.message);
            co.insert(QLatin1String("field"), c.field);
            causes.append(co);
        }
        d.insert(QLatin1String("causes"), causes);
    }
    if (m_details.retryAfterSeconds > 0)
        d.insert(QLatin1String("retryAfterSeconds"), m_details.retryAfterSeconds);
    if (!d.isEmpty())
        o.insert(QLatin1String("details"), d);
    o.insert(QLatin1String("code"), m_code);
    return o;
}

QByteArray Status::toJsonBytes() const { return QJsonDocument(toJson()).toJson(QJsonDocument::Compact); }

QString Status::toString() const
{
    if (m_code == 0)
        return QStringLiteral("%1: %2").arg(m_reason, m_message);
    return QStringLiteral("%1 (%2): %3").arg(m_reason).arg(m_code).arg(m_message);
}

Status Status::notFound(const QString &group, const QString &resource, const QString &name)
{
    return Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("%1 \"%2\" not found").arg(qualified(group, resource), name),
        StatusDetails{name, group, resource, {}, {}, 0});
}

Status Status::alreadyExists(const QString &group, const QString &resource, const QString &name)
{
    return Status(409, QString::fromLatin1(StatusReason::AlreadyExists),
        QStringLiteral("%1 \"%2\" already exists").arg(qualified(group, resource), name),
        StatusDetails{name, group, resource, {}, {}, 0});
}

Status Status::conflict(const QString &group, const QString &resource, const QString &name, const QString &why)
{
    return Status(409, QString::fromLatin1(StatusReason::Conflict),
        QStringLiteral("Operation cannot be fulfilled on %1 \"%2\": %3").arg(qualified(group, resource), name, why),
        StatusDetails{name, group, resource, {}, {}, 0});
}

Status Status::modifiedConflict(const QString &group, const QString &resource, const QString &name)
{
    return conflict(group, resource, name,
        QStringLiteral("the object has been modified; please apply your changes to the latest version and try again"));
}

Status Status::invalid(const QString &group, const QString &kind, const QString &name, const QList<StatusCause> &causes)
{
    QStringList parts;
    for (const StatusCause &c : causes)
        parts << (c.field.isEmpty() ? c.message : c.field + QLatin1String(": ") + c.message);
    QString errs
        = parts.size() == 1 ? parts.first() : QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
    return Status(422, QString::fromLatin1(StatusReason::Invalid),
        QStringLiteral("%1 \"%2\" is invalid: %3").arg(qualified(group, kind), name, errs),
        StatusDetails{name, group, kind, {}, causes, 0});
}

Status Status::badRequest(const QString &message)
{
    return Status(400, QString::fromLatin1(StatusReason::BadRequest), message);
}

Status Status::gone(const QString &message) { return Status(410, QString::fromLatin1(StatusReason::Gone), message); }

Status Status::expired(const QString &message)
{
    return Status(410, QString::fromLatin1(StatusReason::Expired), message);
}

Status Status::forbidden(const QString &group, const QString &resource, const QString &name, const QString &why)
{
    const QString subject = name.isEmpty() ? qualified(group, resource)
                                           : QStringLiteral("%1 \"%2\"").arg(qualified(group, resource), name);
    return Status(403, QString::fromLatin1(StatusReason::Forbidden),
        QStringLiteral("%1 is forbidden: %2").arg(subject, why), StatusDetails{name, group, resource, {}, {}, 0});
}

Status Status::unauthorized()
{
    return Status(401, QString::fromLatin1(StatusReason::Unauthorized), QStringLiteral("Unauthorized"));
}

Status Status::methodNotAllowed(const QString &message)
{
    return Status(405, QString::fromLatin1(StatusReason::MethodNotAllowed), message);
}

Status Status::unsupportedMediaType(const QString &message)
{
    return Status(415, QString::fromLatin1(StatusReason::UnsupportedMediaType), message);
}

Status Status::tooLarge(const QString &message)
{
    return Status(413, QString::fromLatin1(StatusReason::RequestEntityTooLarge), message);
}

Status Status::tooManyRequests(const QString &message, int retryAfterSeconds)
{
    StatusDetails d;
    d.retryAfterSeconds = retryAfterSeconds;
    return Status(429, QString::fromLatin1(StatusReason::TooManyRequests), message, d);
}

Status Status::internalError(const QString &message)
{
    return Status(500, QString::fromLatin1(StatusReason::InternalError),
        QStringLiteral("Internal error occurred: %1").arg(message));
}

Status Status::transport(const QString &reason, const QString &message) { return Status(0, reason, message); }

static bool reasonIs(const Status &s, const char *r) { return s.reason() == QLatin1String(r); }

bool isNotFound(const Status &s)
{
    return reasonIs(s, StatusReason::NotFound) || (s.reason().isEmpty() && s.code() == 404);
}
bool isConflict(const Status &s)
{
    return reasonIs(s, StatusReason::Conflict) || (s.code() == 409 && !reasonIs(s, StatusReason::AlreadyExists));
}
bool isAlreadyExists(const Status &s) { return reasonIs(s, StatusReason::AlreadyExists); }
bool isInvalid(const Status &s)
{
    return reasonIs(s, StatusReason::Invalid) || (s.reason().isEmpty() && s.code() == 422);
}
bool isGone(const Status &s)
{
    return s.code() == 410 || reasonIs(s, StatusReason::Gone) || reasonIs(s, StatusReason::Expired);
}
bool isExpired(const Status &s) { return reasonIs(s, StatusReason::Expired); }
bool isTooManyRequests(const Status &s) { return s.code() == 429 || reasonIs(s, StatusReason::TooManyRequests); }
bool isForbidden(const Status &s) { return s.code() == 403 || reasonIs(s, StatusReason::Forbidden); }
bool isUnauthorized(const Status &s) { return s.code() == 401 || reasonIs(s, StatusReason::Unauthorized); }
bool isBadRequest(const Status &s) { return s.code() == 400 || reasonIs(s, StatusReason::BadRequest); }
bool isTimeout(const Status &s)
{
    return s.code() == 504 || reasonIs(s, StatusReason::Timeout) || reasonIs(s, StatusReason::ServerTimeout);
}
bool isInternalError(const Status &s) { return s.code() == 500 || reasonIs(s, StatusReason::InternalError); }
bool isTransportError(const Status &s) { return s.code() == 0 && !s.reason().isEmpty(); }

} // namespace opbench

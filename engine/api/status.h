// SPDX-License-Identifier: Apache-2.0
#pragma once
// Status: the Kubernetes error envelope (metav1.Status), used for every failure the engine
// reports, from the API server or from the transport (code 0, reason from StatusReason).

#include <QJsonObject>
#include <QList>
#include <QString>

namespace opbench {

struct StatusCause
{
    QString reason; // FieldValueInvalid, FieldValueRequired, ...
    QString message;
    QString field; // field path, e.g. spec.replicas
    friend bool operator==(const StatusCause &, const StatusCause &) = default;
};

struct StatusDetails
{
    QString name;
    QString group;
    QString kind; // the plural resource for NotFound/AlreadyExists/Conflict/Forbidden, the Kind for Invalid
    QString uid;
    QList<StatusCause> causes;
    int retryAfterSeconds = 0;
    friend bool operator==(const StatusDetails &, const StatusDetails &) = default;
};

/// Reasons used by the engine, as the API server spells them.
namespace StatusReason {
inline constexpr auto BadRequest = "BadRequest";
inline constexpr auto Unauthorized = "Unauthorized";
inline constexpr auto Forbidden = "Forbidden";
inline constexpr auto NotFound = "NotFound";
inline constexpr auto MethodNotAllowed = "MethodNotAllowed";
inline constexpr auto NotAcceptable = "NotAcceptable";
inline constexpr auto AlreadyExists = "AlreadyExists";
inline constexpr auto Conflict = "Conflict";
inline constexpr auto Gone = "Gone";
inline constexpr auto Expired = "Expired";
inline constexpr auto RequestEntityTooLarge = "RequestEntityTooLarge";
inline constexpr auto UnsupportedMediaType = "UnsupportedMediaType";
inline constexpr auto Invalid = "Invalid";
inline constexpr auto TooManyRequests = "TooManyRequests";
inline constexpr auto InternalError = "InternalError";
inline constexpr auto ServiceUnavailable = "ServiceUnavailable";
inline constexpr auto Timeout = "Timeout";
inline constexpr auto ServerTimeout = "ServerTimeout";
// Transport-level failures (no HTTP status): code 0.
inline constexpr auto ConnectionFailed = "ConnectionFailed";
inline constexpr auto TlsError = "TLSError";
inline constexpr auto Cancelled = "Cancelled";
inline constexpr auto DecodeError = "DecodeError";
inline constexpr auto ConfigError = "ConfigError";
} // namespace StatusReason

class Status
{
public:
    Status() = default;
    Status(int code, QString reason, QString message, StatusDetails details = {});

    /// Parses a Status JSON document. A body that is not a Status yields a Status with the
    /// given HTTP code, the reason the API server would use for it, and the body's first bytes.
    static Status fromJson(const QJsonObject &obj, int httpCode = 0);
    static Status fromHttp(int httpCode, const QByteArray &body);
    QJsonObject toJson() const;
    QByteArray toJsonBytes() const;

    int code() const { return m_code; }
    const QString &reason() const { return m_reason; }
    const QString &message() const { return m_message; }
    const StatusDetails &details() const { return m_details; }
    StatusDetails &details() { return m_details; }
    /// For continue-token expiry: Status.metadata.continue.
    QString continueToken() const { return m_continue; }
    void setContinueToken(const QString &c) { m_continue = c; }

    /// "reason (code): message", for logs.
    QString toString() const;

    // Constructors for the API server's standard errors (messages as the real server writes them).
    // `group` is "" for the core group; messages name "resource.group" as the server does.
    static Status notFound(const QString &group, const QString &resource, const QString &name);
    static Status alreadyExists(const QString &group, const QString &resource, const QString &name);
    /// 409 "Operation cannot be fulfilled on <resource> "<n>": <why>".
    static Status conflict(const QString &group, const QString &resource, const QString &name, const QString &why);
    /// The standard "the object has been modified" conflict.
    static Status modifiedConflict(const QString &group, const QString &resource, const QString &name);
    /// 422 "<Kind>.<group> "<n>" is invalid: <causes>"; each cause's message is printed as
    /// "<field>: <message>" and several are bracketed.
    static Status invalid(
        const QString &group, const QString &kind, const QString &name, const QList<StatusCause> &causes);
    static Status badRequest(const QString &message);
    static Status gone(const QString &message);    // reason Gone
    static Status expired(const QString &message); // reason Expired
    static Status forbidden(const QString &group, const QString &resource, const QString &name, const QString &why);
    static Status unauthorized();
    static Status methodNotAllowed(const QString &message);
    static Status unsupportedMediaType(const QString &message);
    static Status tooLarge(const QString &message);
    static Status tooManyRequests(const QString &message, int retryAfterSeconds);
    static Status internalError(const QString &message);
    static Status transport(const QString &reason, const QString &message);

    /// The default reason for an HTTP code, as the API server picks it.
    static QString reasonForCode(int code);

    friend bool operator==(const Status &, const Status &) = default;

private:
    int m_code = 0;
    QString m_reason;
    QString m_message;
    StatusDetails m_details;
    QString m_continue;
};

bool isNotFound(const Status &s);
bool isConflict(const Status &s);
bool isAlreadyExists(const Status &s);
bool isInvalid(const Status &s);
/// 410, reason Gone or Expired (a compacted resourceVersion or an expired continue token).
bool isGone(const Status &s);
bool isExpired(const Status &s);
bool isTooManyRequests(const Status &s);
bool isForbidden(const Status &s);
bool isUnauthorized(const Status &s);
bool isBadRequest(const Status &s);
bool isTimeout(const Status &s);
bool isInternalError(const Status &s);
bool isTransportError(const Status &s);

} // namespace opbench

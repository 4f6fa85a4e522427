// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by RestClient and WatchStream: building a QNetworkRequest from a RestConfig, mapping
// transport failures to Status, and the request counter.

#include "engine/client/auth.h"
#include "engine/client/restconfig.h"

#include <QNetworkRequest>
#include <QStringList>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace opbench::detail {

/// A request for `path` (+ encoded `query`) on the config's server, with TLS settings,
/// User-Agent, Accept, Content-Type and the credentials' Authorization header.
QNetworkRequest buildRequest(const RestConfig &cfg, const QString &path, const QByteArray &query,
                             const Credentials &creds, const QByteArray &contentType);

/// Applies the config's proxy (or none) to a manager.
void configureManager(QNetworkAccessManager *nam, const RestConfig &cfg);

/// Collects the reply's TLS errors (as text naming the certificate) for the error message.
std::shared_ptr<QStringList> collectTlsErrors(QNetworkReply *reply);

/// A transport failure as Status (code 0): ConnectionFailed, TLSError (naming the expected
/// server name and the trusted CA source), Timeout.
Status transportError(QNetworkReply *reply, const QByteArray &method, const RestConfig &cfg, const QStringList &tlsErrors);
Status timeoutError(const QByteArray &method, const QString &path, std::chrono::milliseconds timeout);

/// Increments rest_client_requests_total{code,method,host} (code "<error>" for transport errors).
void countRequest(int code, const QByteArray &method, const QUrl &server);

/// Seconds from a Retry-After header (integer seconds), or -1.
int retryAfterSeconds(QNetworkReply *reply);

} // namespace opbench::detail

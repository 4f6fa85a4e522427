// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by RestClient and WatchStream: the HTTP client for a RestConfig (server, TLS name,
// proxy), a request's URL, headers and TLS settings, mapping transport failures to Status, and
// the request counter.

#include "engine/client/auth.h"
#include "engine/client/restconfig.h"

#include <QStringList>

class QObject;
class QSslConfiguration;

namespace opbench::detail {

class HttpClient;
class HttpReply;

/// An HttpClient for the config's server, TLS server name and proxy (none unless proxy-url).
HttpClient *makeHttpClient(const RestConfig &cfg, QObject *parent);

/// The URL of `path` (+ encoded `query`) on the config's server (its path prefix kept).
QUrl requestUrl(const RestConfig &cfg, const QString &path, const QByteArray &query);
/// User-Agent, Accept, Content-Type and Authorization as "Name: value\r\n" lines. Accept is
/// `accept`, or application/json when it is empty.
QByteArray requestHeaders(
    const RestConfig &cfg, const Credentials &creds, const QByteArray &contentType, const QByteArray &accept = {});
/// The TLS settings of a request: the config's CAs, verification and client identity (the
/// credentials' certificate, from an exec plugin, before the kubeconfig's). Empty for http.
QSslConfiguration sslConfiguration(const RestConfig &cfg, const Credentials &creds);

/// A transport failure as Status (code 0): ConnectionFailed, TLSError (naming the expected
/// server name and the trusted CA source), Cancelled.
Status transportError(const HttpReply &reply, const QByteArray &method, const RestConfig &cfg);
Status timeoutError(const QByteArray &method, const QString &path, std::chrono::milliseconds timeout);

/// Increments rest_client_requests_total{code,method,host} (code "<error>" for transport errors).
void countRequest(int code, const QByteArray &method, const QUrl &server);

/// Seconds from a Retry-After header (integer seconds), or -1.
int retryAfterSeconds(const HttpReply &reply);

} // namespace opbench::detail

// SPDX-License-Identifier: Apache-2.0
// The embedded API server's request handling (engine/apiserver): path, query, headers and body.
//
// There is no function that takes a raw request and dispatches it without a socket: HttpFront
// only sees Qt's QHttpServerRequest (not constructible outside QtHttpServer), and its dispatch()
// is private. So this target rebuilds that pipeline from its public parts, in HttpFront's order:
// the Request as Request::fromQt() makes it (path percent-decoded, '+' in the query a space,
// header names lower case), the body limit (413), Authorizer authenticate/authorize (401/403),
// RequestInfo::parse, then AccessReviews / ResourceHandler / Discovery / 404. It leaves out
// fault injection and the audit log. Responses are written to a socket object that only
// records bytes (no network).
//
// A fresh ApiServer (not started: no listener) per input, with a FakeClock, the MyApplication
// CRD and a ConfigMap, Deployment and MyApplication to act on. The input holds up to 8 requests
// separated by a line `--next--`, each:
//   METHOD /target?query HTTP/1.1
//   Header: value
//   (empty line)
//   body
// Invariants: every request is answered (after the fake clock moves past any freshness wait),
// except watches; the response head is well-formed HTTP/1.1 with a Content-Length matching the
// body, or a chunked stream whose framing is valid; JSON bodies parse; no 5xx other than 503/504.
#include "engine/api/yamlcodec.h"
#include "engine/apiserver/apiserver.h"
#include "engine/apiserver/auth/auth.h"
#include "engine/apiserver/handlers/accessreview.h"
#include "engine/apiserver/handlers/discovery.h"
#include "engine/apiserver/handlers/resourcehandler.h"
#include "engine/apiserver/http/requestinfo.h"
#include "engine/apiserver/httpfront.h"
#include "engine/apiserver/storage/store.h"
#include "engine/apiserver/storage/watchhub.h"
#include "engine/base/clock.h"
#include "engine/testing/fakeclock.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QTcpSocket>

#include <memory>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

/// A "connected" socket that records what is written to it.
class CaptureSocket : public QTcpSocket
{
public:
    CaptureSocket()
    {
        setOpenMode(QIODevice::ReadWrite);
        setSocketState(QAbstractSocket::ConnectedState);
    }
    QByteArray out;

protected:
    qint64 writeData(const char *data, qint64 len) override
    {
        out.append(data, len);
        return len;
    }
    qint64 readData(char *, qint64) override { return 0; }
};

const QByteArray kToken = "fuzz-admin-token";
const QByteArray kViewerToken = "fuzz-viewer-token";

const QList<QJsonObject> &crds()
{
    static const QList<QJsonObject> docs = [] {
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/resources/crds/myapplications.example.com.yaml"));
        FUZZ_CHECK(f.open(QIODevice::ReadOnly), f.fileName());
        auto parsed = yamlToJson(f.readAll());
        FUZZ_CHECK(parsed.ok(), parsed.error().message());
        return *parsed;
    }();
    return docs;
}

QJsonObject json(const char *text) { return QJsonDocument::fromJson(text).object(); }

struct Parsed
{
    Request request;
    bool valid = false;
};

/// One request in the input's textual form → a Request the way Request::fromQt() builds it.
Parsed parseRequest(const QByteArray &raw)
{
    Parsed p;
    qsizetype headEnd = raw.indexOf("\n\n");
    const QByteArray head = headEnd >= 0 ? raw.left(headEnd) : raw;
    p.request.body = headEnd >= 0 ? raw.mid(headEnd + 2) : QByteArray();
    QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() < 2)
        return p;
    static const char *const names[] = {"GET", "PUT", "DELETE", "POST", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE"};
    p.request.method = "UNKNOWN";
    for (const char *n : names)
        if (requestLine[0] == n)
            p.request.method = n;
    const QUrl url = QUrl::fromEncoded("http://127.0.0.1:6443" + requestLine[1]);
    if (!url.isValid())
        return p;
    p.request.path = url.path(QUrl::FullyDecoded);
    QString rawQuery = url.query(QUrl::FullyEncoded);
    rawQuery.replace(u'+', QLatin1String("%20"));
    p.request.query.setQuery(rawQuery);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].endsWith('\r') ? lines[i].chopped(1) : lines[i];
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            p.request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }
    p.request.remote = QHostAddress::LocalHost;
    p.valid = true;
    return p;
}

/// HttpFront::handleRequest + dispatch without faults and audit (see the file comment).
void serve(const Request &request, Authorizer &auth, Discovery &discovery, AccessReviews &reviews,
    ResourceHandler &resources, Responder responder)
{
    const RequestInfo info = RequestInfo::parse(request);
    if (request.body.size() > kMaxRequestBodyBytes)
        return responder.sendStatus(Status::tooLarge(QStringLiteral("too large")));
    Request authed = request;
    if (!Discovery::isPublicPath(request.path)) {
        auto who = auth.authenticate(request);
        if (!who)
            return responder.sendStatus(who.error());
        authed.user = *who;
        if (auto ok = auth.authorize(*who, info, request.method); !ok)
            return responder.sendStatus(ok.error());
    }
    if (AccessReviews::isReview(info))
        return reviews.handle(authed, info, responder);
    if (info.isResourceRequest)
        return resources.handle(authed, info, responder);
    if (discovery.handle(authed, responder))
        return;
    responder.sendStatus(Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("the server could not find the requested resource")));
}

/// Checks one response's bytes; `watch`: a chunked stream may be unterminated.
void checkResponse(const QByteArray &out, int code, const QString &what)
{
    const QString shown = what + u'\n' + QString::fromUtf8(out.left(2000));
    FUZZ_CHECK(code >= 200 && code < 600, shown);
    FUZZ_CHECK(code < 500 || code == 503 || code == 504, shown);
    const qsizetype headEnd = out.indexOf("\r\n\r\n");
    FUZZ_CHECK(out.startsWith("HTTP/1.1 " + QByteArray::number(code) + ' ') && headEnd > 0, shown);
    const QByteArray head = out.left(headEnd);
    QByteArray body = out.mid(headEnd + 4);
    const qsizetype cl = head.indexOf("\r\nContent-Length: ");
    const bool chunked = head.contains("\r\nTransfer-Encoding: chunked");
    FUZZ_CHECK(chunked != (cl >= 0), shown);
    if (!chunked) {
        const qsizetype clEnd = head.indexOf("\r\n", cl + 2);
        const qint64 length = head.mid(cl + 18, clEnd < 0 ? -1 : clEnd - cl - 18).toLongLong();
        FUZZ_CHECK(length == body.size(), shown);
    } else {
        QByteArray decoded;
        qsizetype at = 0;
        for (;;) {
            const qsizetype nl = body.indexOf("\r\n", at);
            if (nl < 0) { // unterminated (a watch still open): fine
                FUZZ_CHECK(at == body.size(), shown);
                break;
            }
            bool ok = false;
            const qsizetype n = body.mid(at, nl - at).toLongLong(&ok, 16);
            FUZZ_CHECK(ok && n >= 0 && nl + 2 + n + 2 <= body.size() && body.mid(nl + 2 + n, 2) == "\r\n", shown);
            if (n == 0)
                break;
            decoded += body.mid(nl + 2, n);
            at = nl + 2 + n + 2;
        }
        body = decoded;
    }
    if (head.contains("Content-Type: application/json") && !chunked && code != 204) {
        QJsonParseError err{};
        QJsonDocument::fromJson(body, &err);
        FUZZ_CHECK(err.error == QJsonParseError::NoError, shown + u'\n' + err.errorString());
    }
}

} // namespace

OPBENCH_FUZZ_TARGET(server)(const std::uint8_t *data, std::size_t size)
{
    const QByteArray input = fuzz::bytes(data, size);
    testing::FakeClock clock;
    ApiServerOptions options;
    options.plainHttp = true;
    options.clock = &clock;
    options.token = QString::fromLatin1(kToken);
    auto server = std::make_unique<ApiServer>(options);
    Store *store = server->store();
    const GroupVersionResource crdGvr{
        QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"), QStringLiteral("customresourcedefinitions")};
    for (const QJsonObject &crd : crds())
        FUZZ_CHECK(store->create(crdGvr, QString(), crd).ok(), QStringLiteral("CRD"));
    FUZZ_CHECK(
        store
            ->create({QString(), QStringLiteral("v1"), QStringLiteral("configmaps")}, QStringLiteral("default"),
                json(
                    R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app":"web"}},"data":{"a":"1"}})"))
            .ok(),
        QStringLiteral("ConfigMap"));
    FUZZ_CHECK(
        store
            ->create({QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")},
                QStringLiteral("default"),
                json(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,
                                  "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
                                  "spec":{"containers":[{"name":"web","image":"nginx:1"}]}}}})"))
            .ok(),
        QStringLiteral("Deployment"));
    FUZZ_CHECK(
        store
            ->create({QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")},
                QStringLiteral("default"),
                json(
                    R"({"apiVersion":"example.com/v1alpha1","kind":"MyApplication","metadata":{"name":"app"},"spec":{"image":"nginx:1","replicas":2}})"))
            .ok(),
        QStringLiteral("MyApplication"));

    Authorizer auth;
    auth.setAdminToken(QString::fromLatin1(kToken));
    auth.setAllowAnonymous(true);
    auth.addUser(
        UserRule{QStringLiteral("viewer"), QString::fromLatin1(kViewerToken), true, {QStringLiteral("default")}});
    QObject context;
    Discovery discovery(store->registry());
    AccessReviews reviews(&auth);
    ResourceHandler resources(store, server->watches(), &context);

    struct Exchange
    {
        std::unique_ptr<CaptureSocket> socket;
        Responder responder{nullptr};
        QString what;
        bool watch = false;
    };
    std::vector<Exchange> exchanges;
    QList<QByteArray> requests;
    for (qsizetype at = 0; at <= input.size() && requests.size() < 8;) { // split at `--next--` lines
        const qsizetype sep = input.indexOf("\n--next--\n", at);
        requests << input.mid(at, sep < 0 ? -1 : sep - at);
        if (sep < 0)
            break;
        at = sep + 10;
    }
    for (const QByteArray &raw : std::as_const(requests)) {
        const Parsed p = parseRequest(raw);
        if (!p.valid)
            continue;
        Exchange ex;
        ex.socket = std::make_unique<CaptureSocket>();
        ex.responder = Responder(ex.socket.get());
        ex.what = QString::fromLatin1(p.request.method) + u' ' + p.request.path + u'?' + p.request.query.toString();
        ex.watch = RequestInfo::parse(p.request).verb == QLatin1String("watch");
        serve(p.request, auth, discovery, reviews, resources, ex.responder);
        QCoreApplication::processEvents();
        exchanges.push_back(std::move(ex));
    }
    // Freshness waits end on the fake clock; the simulator's timers run too.
    clock.advance(std::chrono::seconds(30));
    QCoreApplication::processEvents();
    for (const Exchange &ex : exchanges) {
        if (!ex.responder.sent()) {
            FUZZ_CHECK(ex.watch, ex.what + QStringLiteral(": no response"));
            continue;
        }
        checkResponse(ex.socket->out, ex.responder.code(), ex.what);
    }
    server->stop(); // ends the watches (terminating chunk) while their sockets still exist
    QCoreApplication::processEvents();
    for (const Exchange &ex : exchanges)
        if (ex.responder.sent())
            checkResponse(ex.socket->out, ex.responder.code(), ex.what);
    server.reset();
    exchanges.clear();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return 0;
}

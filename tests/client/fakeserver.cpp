// SPDX-License-Identifier: Apache-2.0
#include "tests/client/fakeserver.h"

#include <QFile>
#include <QPointer>
#include <QProcess>
#include <QSslConfiguration>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace opbench::test {

QString FakeRequest::query(const QString &key) const
{
    QByteArray q = rawQuery;
    q.replace('+', ' ');
    return QUrlQuery(QString::fromLatin1(q)).queryItemValue(key, QUrl::FullyDecoded);
}

bool FakeRequest::hasQuery(const QString &key) const
{
    return QUrlQuery(QString::fromLatin1(rawQuery)).hasQueryItem(key);
}

FakeResponse FakeResponse::json(int code, const QByteArray &body)
{
    FakeResponse r;
    r.code = code;
    r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    r.body = body;
    return r;
}

FakeServer::FakeServer(QObject *parent)
    : QObject(parent)
{ }
FakeServer::~FakeServer() = default;

quint16 FakeServer::listen(const QSslCertificate &cert, const QSslKey &key)
{
    m_tls = !cert.isNull();
    if (m_tls) {
        auto *ssl = new QSslServer(this);
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.setLocalCertificate(cert);
        conf.setPrivateKey(key);
        conf.setPeerVerifyMode(m_clientCa.isEmpty() ? QSslSocket::VerifyNone : QSslSocket::VerifyPeer);
        if (!m_clientCa.isEmpty())
            conf.setCaCertificates(m_clientCa);
        ssl->setSslConfiguration(conf);
        m_server = ssl;
    } else {
        m_server = new QTcpServer(this);
    }
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, [this]() {
        while (QTcpSocket *s = m_server->nextPendingConnection())
            onConnection(s);
    });
    if (!m_server->listen(QHostAddress::LocalHost, 0))
        return 0;
    return m_server->serverPort();
}

QString FakeServer::url() const
{
    return QStringLiteral("%1://127.0.0.1:%2")
        .arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"))
        .arg(m_server->serverPort());
}

void FakeServer::onConnection(QTcpSocket *s)
{
    s->setParent(this);
    connect(s, &QTcpSocket::readyRead, this, [this, s]() { onReadyRead(s); });
    connect(s, &QTcpSocket::disconnected, this, [this, s]() {
        m_buffers.remove(s);
        s->deleteLater();
    });
    if (s->bytesAvailable() > 0)
        onReadyRead(s);
}

void FakeServer::onReadyRead(QTcpSocket *s)
{
    QByteArray &buf = m_buffers[s];
    buf += s->readAll();
    for (;;) {
        const qsizetype end = buf.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buf.left(end).split('\n');
        FakeRequest req;
        const QList<QByteArray> first = lines.first().trimmed().split(' ');
        if (first.size() < 2)
            return;
        req.method = first[0];
        const QByteArray target = first[1];
        const qsizetype qm = target.indexOf('?');
        req.path = qm < 0 ? target : target.left(qm);
        req.rawQuery = qm < 0 ? QByteArray() : target.mid(qm + 1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon > 0)
                req.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
        }
        const qsizetype len = req.headers.value("content-length", "0").toLongLong();
        if (buf.size() < end + 4 + len)
            return;
        req.body = buf.mid(end + 4, len);
        if (auto *ssl = qobject_cast<QSslSocket *>(s); ssl && !ssl->peerCertificate().isNull())
            req.clientCommonName = ssl->peerCertificate().subjectInfo(QSslCertificate::CommonName).value(0);
        buf.remove(0, end + 4 + len);
        requests.append(req);
        const FakeResponse resp = m_handler ? m_handler(req) : FakeResponse::json(404, "{}");
        respond(s, resp);
    }
}

static QByteArray reasonPhrase(int code)
{
    switch (code) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 409:
        return "Conflict";
    case 429:
        return "Too Many Requests";
    default:
        return "Status";
    }
}

int FakeServer::onDemandStreams() const
{
    int n = 0;
    for (const OnDemand &d : m_onDemand)
        n += d.socket && !d.chunks.isEmpty() ? 1 : 0;
    return n;
}

int FakeServer::releaseChunk()
{
    int written = 0;
    for (OnDemand &d : m_onDemand) {
        if (!d.socket || d.chunks.isEmpty())
            continue;
        const QByteArray chunk = d.chunks.takeFirst();
        d.socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
        if (d.chunks.isEmpty() && !d.keepOpen)
            d.socket->write("0\r\n\r\n");
        d.socket->flush();
        ++written;
    }
    return written;
}

void FakeServer::respond(QTcpSocket *s, const FakeResponse &r)
{
    if (r.hang)
        return;
    QByteArray head = "HTTP/1.1 " + QByteArray::number(r.code) + ' ' + reasonPhrase(r.code) + "\r\n";
    for (const auto &[k, v] : r.headers)
        head += k + ": " + v + "\r\n";
    if (r.chunks.isEmpty()) {
        head += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n\r\n";
        s->write(head + r.body);
        return;
    }
    head += "Transfer-Encoding: chunked\r\n\r\n";
    s->write(head);
    s->flush();
    QPointer<QTcpSocket> sock(s);
    if (r.chunksOnDemand) {
        m_onDemand.append({sock, r.chunks, r.keepOpen});
        return;
    }
    for (qsizetype i = 0; i < r.chunks.size(); ++i) {
        const QByteArray chunk = r.chunks[i];
        const bool last = i + 1 == r.chunks.size();
        const bool keepOpen = r.keepOpen;
        QTimer::singleShot(int(i + 1) * r.chunkIntervalMs, this, [sock, chunk, last, keepOpen]() {
            if (!sock)
                return;
            sock->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
            if (last && !keepOpen)
                sock->write("0\r\n\r\n");
            sock->flush();
        });
    }
}

static bool run(const QStringList &args, QString *error)
{
    QProcess p;
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        *error = QStringLiteral("openssl %1 failed: %2").arg(args.first(), QString::fromUtf8(p.readAllStandardError()));
        return false;
    }
    return true;
}

bool makeCertificates(const QString &dir, const QString &caName, QString *error)
{
    const QString ca = dir + QStringLiteral("/ca"), srv = dir + QStringLiteral("/server");
    const QStringList ec{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
        QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    QFile ext(dir + QStringLiteral("/ext.cnf"));
    if (!ext.open(QIODevice::WriteOnly))
        return false;
    ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:api.example.test\n");
    ext.close();
    return run(QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ec
                   + QStringList{QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=") + caName, QStringLiteral("-keyout"), ca + QStringLiteral(".key"),
                       QStringLiteral("-out"), ca + QStringLiteral(".crt")},
               error)
        && run(QStringList{QStringLiteral("req")} + ec
                + QStringList{QStringLiteral("-subj"), QStringLiteral("/CN=localhost"), QStringLiteral("-keyout"),
                    srv + QStringLiteral(".key"), QStringLiteral("-out"), srv + QStringLiteral(".csr")},
            error)
        && run({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), srv + QStringLiteral(".csr"),
                   QStringLiteral("-CA"), ca + QStringLiteral(".crt"), QStringLiteral("-CAkey"),
                   ca + QStringLiteral(".key"), QStringLiteral("-CAcreateserial"), QStringLiteral("-days"),
                   QStringLiteral("2"), QStringLiteral("-extfile"), dir + QStringLiteral("/ext.cnf"),
                   QStringLiteral("-out"), srv + QStringLiteral(".crt")},
            error)
        && run(QStringList{QStringLiteral("req")} + ec
                + QStringList{QStringLiteral("-subj"), QStringLiteral("/CN=jane/O=devs"), QStringLiteral("-keyout"),
                    dir + QStringLiteral("/client.key"), QStringLiteral("-out"), dir + QStringLiteral("/client.csr")},
            error)
        && run(
            {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), dir + QStringLiteral("/client.csr"),
                QStringLiteral("-CA"), ca + QStringLiteral(".crt"), QStringLiteral("-CAkey"),
                ca + QStringLiteral(".key"), QStringLiteral("-CAcreateserial"), QStringLiteral("-days"),
                QStringLiteral("2"), QStringLiteral("-out"), dir + QStringLiteral("/client.crt")},
            error);
}

} // namespace opbench::test

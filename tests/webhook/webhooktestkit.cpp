// SPDX-License-Identifier: Apache-2.0
#include "tests/webhook/webhooktestkit.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QSslSocket>

namespace opbench::test {

namespace {

bool openssl(const QStringList &args, QString *error)
{
    QProcess p;
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        *error = QStringLiteral("openssl %1 failed: %2").arg(args.first(), QString::fromUtf8(p.readAllStandardError()));
        return false;
    }
    return true;
}

QSslConfiguration trusting(const QString &certDir)
{
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setCaCertificates(QSslCertificate::fromPath(certDir + QStringLiteral("/ca.crt")));
    return config;
}

} // namespace

bool writeServingCert(const QString &dir, const QString &commonName, QString *error)
{
    const QStringList ec{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
        QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    const QString ca = dir + QStringLiteral("/ca");
    if (!QFile::exists(ca + QStringLiteral(".crt"))) {
        QFile ext(dir + QStringLiteral("/ext.cnf"));
        if (!ext.open(QIODevice::WriteOnly))
            return false;
        ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        ext.close();
        if (!openssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ec
                    + QStringList{QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                        QStringLiteral("/CN=webhook-test-ca"), QStringLiteral("-keyout"), ca + QStringLiteral(".key"),
                        QStringLiteral("-out"), ca + QStringLiteral(".crt")},
                error))
            return false;
    }
    const QString tmp = dir + QStringLiteral("/new");
    if (!openssl(QStringList{QStringLiteral("req")} + ec
                + QStringList{QStringLiteral("-subj"), QStringLiteral("/CN=") + commonName, QStringLiteral("-keyout"),
                    tmp + QStringLiteral(".key"), QStringLiteral("-out"), tmp + QStringLiteral(".csr")},
            error)
        || !openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                        tmp + QStringLiteral(".csr"), QStringLiteral("-CA"), ca + QStringLiteral(".crt"),
                        QStringLiteral("-CAkey"), ca + QStringLiteral(".key"), QStringLiteral("-CAcreateserial"),
                        QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"),
                        dir + QStringLiteral("/ext.cnf"), QStringLiteral("-out"), tmp + QStringLiteral(".crt")},
            error))
        return false;
    // Rename over the served files (std::rename replaces atomically; QFile::rename would not).
    return std::rename(qPrintable(tmp + QStringLiteral(".key")), qPrintable(dir + QStringLiteral("/tls.key"))) == 0
        && std::rename(qPrintable(tmp + QStringLiteral(".crt")), qPrintable(dir + QStringLiteral("/tls.crt"))) == 0;
}

HttpsReply postHttps(
    const QString &certDir, quint16 port, const QString &path, const QByteArray &body, const QByteArray &contentType)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(QStringLiteral("https://127.0.0.1:%1%2").arg(port).arg(path)));
    request.setSslConfiguration(trusting(certDir));
    request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    QNetworkReply *reply = nam.post(request, body);
    QSignalSpy done(reply, &QNetworkReply::finished);
    HttpsReply out;
    if (!reply->isFinished() && !done.wait(20000)) {
        out.error = QStringLiteral("timed out");
        return out;
    }
    out.code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    if (reply->error() != QNetworkReply::NoError && out.code == 0)
        out.error = reply->errorString();
    reply->deleteLater();
    return out;
}

QSslCertificate handshakeCertificate(const QString &certDir, quint16 port, QString *error)
{
    QSslSocket socket;
    socket.setSslConfiguration(trusting(certDir));
    socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
    QSignalSpy encrypted(&socket, &QSslSocket::encrypted);
    if (!socket.isEncrypted() && !encrypted.wait(20000)) {
        *error = socket.errorString();
        return QSslCertificate();
    }
    return socket.peerCertificate();
}

} // namespace opbench::test

namespace opbench::test {

namespace {

QJsonValue applyAt(const QJsonValue &node, QStringList tokens, const QString &op, const QJsonValue &value)
{
    const QString token = tokens.takeFirst()
                              .replace(QLatin1String("~1"), QLatin1String("/"))
                              .replace(QLatin1String("~0"), QLatin1String("~"));
    if (node.isArray()) {
        QJsonArray a = node.toArray();
        const int i = token == QLatin1String("-") ? int(a.size()) : token.toInt();
        if (!tokens.isEmpty())
            a[i] = applyAt(a.at(i), tokens, op, value);
        else if (op == QLatin1String("remove"))
            a.removeAt(i);
        else if (op == QLatin1String("add"))
            a.insert(i, value);
        else
            a[i] = value;
        return a;
    }
    QJsonObject o = node.toObject();
    if (!tokens.isEmpty())
        o.insert(token, applyAt(o.value(token), tokens, op, value));
    else if (op == QLatin1String("remove"))
        o.remove(token);
    else
        o.insert(token, value);
    return o;
}

} // namespace

WebhookServerOptions loopbackOptions(const QString &certDir, MetricsRegistry *metrics)
{
    WebhookServerOptions o;
    o.host = QStringLiteral("127.0.0.1");
    o.port = 0;
    o.certDir = certDir;
    o.metrics = metrics;
    return o;
}

QJsonObject applyPatch(const QJsonObject &document, const QJsonArray &operations)
{
    QJsonValue doc = document;
    for (const auto &v : operations) {
        const QJsonObject op = v.toObject();
        const QString path = op.value(QLatin1String("path")).toString();
        if (path.isEmpty()) {
            doc = op.value(QLatin1String("value"));
            continue;
        }
        doc = applyAt(
            doc, path.mid(1).split(u'/'), op.value(QLatin1String("op")).toString(), op.value(QLatin1String("value")));
    }
    return doc.toObject();
}

} // namespace opbench::test

// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test-local HTTPS admission webhook for tst_apiserver_admission: listens on 127.0.0.1 with a
// certificate from TlsMaterial::generate(), records every AdmissionReview it receives (with the
// request path) and answers each with what `answer` returns for it (`silent` paths never answer),
// or, when `raw` is set, with the whole body `raw` returns (a ConversionReview, a wrong answer).

#include "engine/apiserver/tls.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSslServer>
#include <QSslSocket>

#include <functional>
#include <memory>

namespace opbench::testing {

class WebhookServer
{
public:
    struct Call
    {
        QString path; // with the query
        QJsonObject review;
    };
    /// (path, AdmissionReview) → the AdmissionReview's `response` (uid is filled in).
    using Answer = std::function<QJsonObject(const QString &path, const QJsonObject &review)>;

    bool start(const apiserver::TlsMaterial &tls)
    {
        auto conf = tls.serverConfiguration();
        if (!conf)
            return false;
        m_server.setSslConfiguration(*conf);
        QObject::connect(&m_server, &QTcpServer::pendingConnectionAvailable, &m_server, [this]() {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                serve(socket);
        });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    QString url(const QString &path) const
    {
        return QStringLiteral("https://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path);
    }
    quint16 port() const { return m_server.serverPort(); }

    Answer answer = [](const QString &, const QJsonObject &) { return QJsonObject{{"allowed", true}}; };
    /// (path, review) → the whole answer body; replaces `answer` when set.
    std::function<QByteArray(const QString &path, const QJsonObject &review)> raw;
    QStringList silent; // paths (without query) that never answer
    QList<Call> calls;
    int callsTo(const QString &path) const
    {
        int n = 0;
        for (const Call &c : calls)
            n += c.path.section(u'?', 0, 0) == path ? 1 : 0;
        return n;
    }

private:
    void serve(QTcpSocket *socket)
    {
        auto buffer = std::make_shared<QByteArray>();
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer]() {
            buffer->append(socket->readAll());
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = buffer->left(end);
            qsizetype length = 0;
            for (const QByteArray &line : head.split('\n'))
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            if (buffer->size() < end + 4 + length)
                return;
            const QString path = QString::fromLatin1(head.split(' ').value(1));
            const QJsonObject review = QJsonDocument::fromJson(buffer->mid(end + 4, length)).object();
            buffer->remove(0, end + 4 + length);
            calls.append(Call{path, review});
            if (silent.contains(path.section(u'?', 0, 0)))
                return;
            const QByteArray body = raw ? raw(path, review) : admissionAnswer(path, review);
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        });
    }

    QByteArray admissionAnswer(const QString &path, const QJsonObject &review)
    {
        QJsonObject response = answer(path, review);
        response.insert(
            QStringLiteral("uid"), review.value(QLatin1String("request")).toObject().value(QLatin1String("uid")));
        return QJsonDocument(
            QJsonObject{{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"response", response}})
            .toJson(QJsonDocument::Compact);
    }

    QSslServer m_server;
};

} // namespace opbench::testing

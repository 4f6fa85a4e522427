// SPDX-License-Identifier: Apache-2.0
#include "engine/client/execauth.h"

#include "engine/client/awaitsignal.h"
#include "engine/client/tlsfiles.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>

#include <memory>

namespace opbench {

ExecAuth::ExecAuth(ExecConfig config, Clock *clock, std::chrono::milliseconds timeout)
    : m_config(std::move(config))
    , m_clock(clock ? clock : Clock::system())
    , m_timeout(timeout)
{ }

QString ExecAuth::describe() const { return QStringLiteral("exec plugin \"%1\"").arg(m_config.command); }

Status ExecAuth::failure(const QString &what) const
{
    QString msg = QStringLiteral("exec plugin \"%1\": %2").arg(m_config.command, what);
    if (!m_config.installHint.isEmpty())
        msg += QLatin1Char('\n') + m_config.installHint.trimmed();
    return Status::transport(StatusReason::ConfigError, msg);
}

bool ExecAuth::invalidate()
{
    m_cached.reset();
    return true;
}

QCoro::Task<Expected<Credentials>> ExecAuth::credentials()
{
    if (m_cached && (!m_expiry.isValid() || m_clock->wallNow() < m_expiry))
        co_return Credentials(*m_cached); // a copy: QCoro 0.8 moves from a co_returned lvalue of another type
    if (m_inflight) {
        // Another request is already running the plugin: share its result.
        co_await detail::SignalWait(m_inflight.get(), &QObject::destroyed, m_timeout + std::chrono::seconds(5));
        if (m_cached)
            co_return Credentials(*m_cached); // a copy: QCoro 0.8 moves from a co_returned lvalue of another type
        co_return m_lastFailure.value_or(failure(QStringLiteral("did not produce credentials")));
    }
    m_cached.reset();
    m_inflight = std::make_unique<QObject>();
    Expected<Credentials> result = co_await run();
    m_lastFailure = result ? std::nullopt : std::optional<Status>(result.error());
    m_inflight.reset(); // wakes the waiters
    co_return result;
}

static QStringList firstLines(const QByteArray &text, int n)
{
    QStringList lines = QString::fromUtf8(text).trimmed().split(u'\n');
    if (lines.size() > n) {
        lines = lines.mid(0, n);
        lines << QStringLiteral("…");
    }
    return lines;
}

QCoro::Task<Expected<Credentials>> ExecAuth::run()
{
    const QString apiVersion = m_config.apiVersion;
    if (apiVersion != QLatin1String("client.authentication.k8s.io/v1")
        && apiVersion != QLatin1String("client.authentication.k8s.io/v1beta1"))
        co_return failure(QStringLiteral("unsupported apiVersion \"%1\" (supported: client.authentication.k8s.io/v1, "
                                         "client.authentication.k8s.io/v1beta1)")
                              .arg(apiVersion));
    if (apiVersion.endsWith(QLatin1String("/v1")) && m_config.interactiveMode.isEmpty())
        co_return failure(QStringLiteral("interactiveMode must be set for client.authentication.k8s.io/v1"));
    if (m_config.interactiveMode == QLatin1String("Always"))
        co_return failure(QStringLiteral("interactiveMode is Always, but opbench never has a terminal to give the "
                                         "plugin; use a plugin mode that works without one"));

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &[k, v] : m_config.env)
        env.insert(k, v);
    QJsonObject spec{{QStringLiteral("interactive"), false}};
    if (m_config.provideClusterInfo)
        spec.insert(QStringLiteral("cluster"), m_config.clusterInfo);
    const QJsonObject info{{QStringLiteral("apiVersion"), apiVersion},
        {QStringLiteral("kind"), QStringLiteral("ExecCredential")}, {QStringLiteral("spec"), spec}};
    env.insert(
        QStringLiteral("KUBERNETES_EXEC_INFO"), QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));

    auto proc = std::make_unique<QProcess>();
    proc->setProcessEnvironment(env);
    proc->setStandardInputFile(QProcess::nullDevice());
    ++m_runs;
    proc->start(m_config.command, m_config.args);
    if (!proc->waitForStarted(10000))
        co_return failure(QStringLiteral("cannot run it: %1").arg(proc->errorString()));
    const detail::WaitOutcome o = co_await detail::SignalWait(proc.get(), &QProcess::finished, m_timeout);
    if (o != detail::WaitOutcome::Signalled) {
        proc->kill();
        proc->waitForFinished(1000);
        co_return failure(QStringLiteral("did not finish within %1 ms").arg(m_timeout.count()));
    }
    if (proc->exitStatus() != QProcess::NormalExit)
        co_return failure(
            QStringLiteral("crashed; stderr: %1").arg(firstLines(proc->readAllStandardError(), 5).join(u'\n')));
    if (proc->exitCode() != 0)
        co_return failure(QStringLiteral("exited with code %1; stderr: %2")
                              .arg(proc->exitCode())
                              .arg(firstLines(proc->readAllStandardError(), 5).join(u'\n')));
    co_return parseOutput(proc->readAllStandardOutput());
}

Expected<Credentials> ExecAuth::parseOutput(const QByteArray &out)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(out, &err);
    // Never echo the output: it carries the credential.
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return failure(QStringLiteral("printed output that is not a JSON object (%1 at offset %2)")
                           .arg(err.errorString())
                           .arg(err.offset));
    const QJsonObject o = doc.object();
    if (o.value(QLatin1String("kind")).toString() != QLatin1String("ExecCredential"))
        return failure(QStringLiteral("output kind is \"%1\", expected ExecCredential")
                           .arg(o.value(QLatin1String("kind")).toString()));
    if (o.value(QLatin1String("apiVersion")).toString() != m_config.apiVersion)
        return failure(QStringLiteral("output apiVersion \"%1\" does not match the configured \"%2\"")
                           .arg(o.value(QLatin1String("apiVersion")).toString(), m_config.apiVersion));
    const QJsonObject st = o.value(QLatin1String("status")).toObject();
    Credentials c;
    const QString token = st.value(QLatin1String("token")).toString();
    const QByteArray certPem = st.value(QLatin1String("clientCertificateData")).toString().toUtf8();
    const QByteArray keyPem = st.value(QLatin1String("clientKeyData")).toString().toUtf8();
    if (!token.isEmpty()) {
        c.authorization = "Bearer " + token.toUtf8();
    } else if (!certPem.isEmpty() && !keyPem.isEmpty()) {
        const QList<QSslCertificate> certs = QSslCertificate::fromData(certPem, QSsl::Pem);
        if (certs.isEmpty())
            return failure(QStringLiteral("status.clientCertificateData is not a PEM certificate"));
        c.clientCertificate = certs.first();
        Expected<QSslKey> key = parsePrivateKey(keyPem, QStringLiteral("status.clientKeyData"));
        if (!key)
            return failure(key.error().message());
        c.clientKey = *key;
    } else {
        return failure(QStringLiteral("output has neither status.token nor status.clientCertificateData and "
                                      "status.clientKeyData"));
    }
    m_expiry = QDateTime();
    const QString exp = st.value(QLatin1String("expirationTimestamp")).toString();
    if (!exp.isEmpty()) {
        m_expiry = QDateTime::fromString(exp, Qt::ISODate);
        if (!m_expiry.isValid())
            return failure(QStringLiteral("status.expirationTimestamp \"%1\" is not an RFC 3339 time").arg(exp));
    }
    m_cached = c;
    return c;
}

} // namespace opbench

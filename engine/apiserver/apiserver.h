// SPDX-License-Identifier: Apache-2.0
#pragma once
// ApiServer: the embedded Kubernetes-compatible API server as one object (what
// `opbench-apiserver`, the GUI and the tests start).
//
//   ApiServerOptions o;           // 127.0.0.1, a free port, HTTPS, a random token
//   ApiServer server(o);
//   if (auto ok = server.start(); !ok) qFatal(...);
//   server.writeKubeconfig(path); // kubectl --kubeconfig path get ns
//
// It lives on one thread (moveToThread() before start() is fine: call start()/stop() on that
// thread, e.g. through QMetaObject::invokeMethod with Qt::BlockingQueuedConnection). The
// Q_INVOKABLE fault controls may be called the same way from another thread. webhookCalled()
// reports each webhook call the server made (connect from any thread; queued across threads).

#include "engine/api/expected.h"
#include "engine/apiserver/admission/webhookcallrecord.h"
#include "engine/apiserver/faults.h"
#include "engine/apiserver/tls.h"

#include <QHash>
#include <QObject>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

namespace opbench {
class Clock;
}

namespace opbench::apiserver {

class Store;
class WatchHub;
class HttpFront;
class ConversionWebhook;

struct ApiServerOptions
{
    QString host = QStringLiteral("127.0.0.1"); ///< listen address
    quint16 port = 0;                           ///< 0: pick a free port
    bool plainHttp = false;                     ///< HTTP instead of HTTPS
    /// Over plain HTTP, accept requests carrying no token as an anonymous admin (kubectl sends
    /// no credentials over plain HTTP). A wrong token is always 401.
    bool anonymousOnPlainHttp = true;
    QString token;             ///< admin bearer token; empty: random (or the state file's)
    QString stateFile;         ///< empty: no persistence
    int watchHistory = 10000;  ///< events kept for watch resume
    int podReadyDelayMs = 500; ///< simulated kubelet: pod Ready after this
    /// The simulated controllers and kubelet write the Events their real counterparts write.
    /// Off only in benchmarks that measure an operator, not the simulated cluster around it.
    bool simulatedEvents = true;
    QList<FaultSpec> faults;
    QString auditLog; ///< empty: no audit log
    /// CustomResourceDefinitions (YAML, one or more documents each) installed at start, unless one
    /// of that name exists already (a state file). The server itself ships none.
    QByteArrayList crds;
    QString rulesFile;              ///< optional extra users (see auth.h)
    std::optional<TlsMaterial> tls; ///< reuse this CA/cert instead of generating one
    Clock *clock = nullptr;         ///< default Clock::system(); must outlive the server
    /// A list or streaming-list watch naming a resourceVersion newer than the server's waits this
    /// long for it, then answers 504 "Too large resource version" (the real server: 3 s).
    int freshnessWaitMs = 3000;
    /// A watch stream with more than this many bytes of events not yet taken by its client is
    /// closed (a stalled client cannot make the server buffer without bound).
    qint64 watchBufferLimitBytes = 32 * 1024 * 1024;
    /// Admission webhooks' service references: "NAMESPACE/NAME" or "NAMESPACE/NAME:PORT" →
    /// "HOST:PORT" (`opbench-apiserver --webhook-service-map`); unmapped services fail the call.
    QHash<QString, QString> webhookServices;
    /// How long one second of a webhook's timeoutSeconds lasts (tests shorten it).
    int webhookMsPerSecond = 1000;
    /// Workbench only (a deviation from kube-apiserver): whether the webhook call of the review
    /// `uid` is held by the workbench's debugger (its WebhookGate). Asked from the server's
    /// thread when a call's timeoutSeconds run out: while it answers true the deadline waits, and
    /// a full timeoutSeconds starts again once it answers false. Empty (everywhere else): calls
    /// time out as kube-apiserver's do.
    std::function<bool(const QString &uid)> webhookHeld;
};

class ApiServer : public QObject
{
    Q_OBJECT
public:
    explicit ApiServer(ApiServerOptions options = {}, QObject *parent = nullptr);
    ~ApiServer() override;

    /// Loads the state file, prepares TLS, installs the CRD and starts listening. Errors: a
    /// corrupt state file, openssl failures, a port that cannot be bound, a bad rules file or
    /// audit log path. Call once.
    Expected<void> start();
    /// Ends watches, stops listening and flushes the state file. Also done by the destructor.
    Q_INVOKABLE void stop();
    bool isRunning() const { return m_port != 0; }

    /// "https://127.0.0.1:PORT" (or http).
    QUrl url() const;
    quint16 port() const { return m_port; }
    QString token() const { return m_token; }
    /// The CA certificate (PEM); empty over plain HTTP.
    QByteArray caPem() const;
    const TlsMaterial &tlsMaterial() const { return m_tls; }
    /// A kubeconfig for this server (server URL, CA data, the token; context "opbench",
    /// namespace default).
    QByteArray kubeconfig() const;
    /// Writes kubeconfig() to `path` (mode 0600).
    Expected<void> writeKubeconfig(const QString &path) const;

    Store *store() const;
    WatchHub *watches() const;
    /// The CRD conversion webhook client (null until started): its callFinished() signal reports
    /// every ConversionReview sent (for the workbench).
    ConversionWebhook *conversionWebhook() const;
    FaultInjector *faultInjector() const { return m_faults; }
    /// Requests served so far.
    quint64 requestCount() const;

    /// Replaces the active faults with `specs` (FaultSpec syntax); false and no change when one
    /// does not parse.
    Q_INVOKABLE bool setFaults(const QStringList &specs);
    Q_INVOKABLE void clearFaults();
    /// Drops every open watch stream now.
    Q_INVOKABLE void dropWatches();
    /// Forgets the watch history (every resume gets 410).
    Q_INVOKABLE void compactHistory();
    /// Creates the CustomResourceDefinition(s) of `yaml` (one or more documents) unless one of
    /// that name exists; its kinds are served at once. Call after start(), on the server's thread.
    /// Errors: it does not parse, or the server refuses it (the Status says why).
    Expected<void> installCrd(const QByteArray &yaml);

Q_SIGNALS:
    void stateSaveFailed(const QString &message);
    /// A webhook call (an AdmissionReview sent) answered or failed, before the write went on.
    void webhookCalled(const opbench::apiserver::WebhookCallRecord &record);

private:
    Expected<void> loadState();
    /// Creates the HTTP front and its listener (TLS unless plainHttp); sets m_port.
    Expected<void> startFront();
    void addAdmission();

    struct Parts;
    ApiServerOptions m_options;
    std::unique_ptr<Parts> d;
    FaultInjector *m_faults = nullptr;
    TlsMaterial m_tls;
    QString m_token;
    quint16 m_port = 0;
};

} // namespace opbench::apiserver

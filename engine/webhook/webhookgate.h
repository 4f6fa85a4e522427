// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookGate: the workbench's debugger for the operator's own webhook handlers, as the
// controller's stepping is for its reconciles. Attached to a WebhookServer (its interceptor),
// it holds a request before the handler runs when a WebhookBreakpoint matches it or when "step
// into" was asked for the next request, and publishes what it holds (WebhookGateState: the
// webhook, the operation, the object, the review's request). The user then
//
//   continueRequest(id)  runs the handler and answers the API server as usual;
//   stepRequest(id)      runs the handler and keeps its answer (verdict, patch) on show;
//                        continueRequest(id) then sends it.
//
// While a request is held the API server's call would time out: heldPredicate() tells the
// embedded server which review uids are held (ApiServerOptions::webhookHeld, workbench only),
// and it suspends the call's deadline for them. Lives on the server's thread; only
// heldPredicate()'s function may be called from another thread.

#include "engine/webhook/webhookbreakpoint.h"
#include "engine/webhook/webhookserver.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

namespace opbench {

/// One request the gate holds, as the workbench shows it.
struct HeldWebhookRequest
{
    enum class Stage {
        Held,    ///< the handler has not run
        Running, ///< the handler runs (an asynchronous handler has not answered yet)
        Answered ///< stepped: the handler answered, the answer waits for Continue
    };
    quint64 id = 0;
    WebhookRequestInfo info;
    QString review;     ///< "AdmissionReview", "ConversionReview" ("" when the body is neither)
    QString reason;     ///< the breakpoint that held it ("webhook /validate-…") or "step into"
    QByteArray request; ///< the review's request as indented JSON (the raw body otherwise)
    Stage stage = Stage::Held;
    // Answered only:
    int code = 0;        ///< the handler's HTTP status
    bool failed = false; ///< it failed: an HTTP error, a 5xx in the review, a failed conversion
    QString verdict;     ///< "allowed", "patched (1 op)", "denied (403): …", "failed (500): …", "converted"
    QByteArray response; ///< the review's response as indented JSON (the raw body otherwise)
};

/// One webhook breakpoint as the Breakpoints dock lists it.
struct WebhookBreakpointRow
{
    int id = 0;
    QString description; ///< WebhookBreakpoint::describe()
    bool enabled = true;
    int hits = 0;
};

struct WebhookGateState
{
    bool attached = false;          ///< a webhook server is gated (the operator serves webhooks)
    QList<HeldWebhookRequest> held; ///< oldest first
    QList<WebhookBreakpointRow> breakpoints;
    bool stepInto = false; ///< the next request will be held
    QString error;         ///< why the last breakpoint typed was refused ("" when it was added)
    /// Why its breakpoints and step into never hit in this session, as the owner set it
    /// (setNeverHits(): "never hits: on a real cluster …"); "" when they can.
    QString neverHits;
};

class WebhookGate : public QObject
{
    Q_OBJECT
public:
    /// Webhook breakpoints' ids start here (apart from the controller's, which count from 1).
    static constexpr int FirstBreakpointId = 1000000;

    explicit WebhookGate(QObject *parent = nullptr);
    ~WebhookGate() override;
    Q_DISABLE_COPY_MOVE(WebhookGate)

    /// Gates `server` (not owned; null detaches, letting every held request go on).
    void attach(WebhookServer *server);
    /// Whether the review `uid` is held now; thread-safe, valid after the gate is gone.
    [[nodiscard]] std::function<bool(const QString &uid)> heldPredicate() const;
    [[nodiscard]] WebhookGateState state() const;
    [[nodiscard]] bool hasBreakpoint(int id) const;
    /// Says why no request can reach the gate in this session (the operator's webhooks are not
    /// served where the API server calls them); "" when they can. Shown with the breakpoints.
    void setNeverHits(const QString &reason);

public Q_SLOTS:
    /// Adds a breakpoint as WebhookBreakpoint::parse() reads it; a refusal is in state().error.
    void addBreakpoint(const QString &spec);
    void removeBreakpoint(int id);
    void setBreakpointEnabled(int id, bool on);
    /// Holds the next request (whatever the breakpoints), once.
    void setStepInto(bool on);
    /// Held: runs the handler and answers. Answered: sends the kept answer. 0: the oldest held.
    void continueRequest(quint64 id = 0);
    /// Held: runs the handler and keeps its answer on show. Answered: sends it. 0: the oldest.
    void stepRequest(quint64 id = 0);
    /// Lets every held request go on (each handler runs, each answer is sent).
    void continueAll();

Q_SIGNALS:
    void stateChanged(const opbench::WebhookGateState &state);

private:
    struct Entry
    {
        HeldWebhookRequest shown;
        WebhookResponder respond;
        WebhookRun run;
        WebhookReply answer;
    };
    struct HeldUids;

    void intercept(const WebhookRequest &request, const WebhookResponder &respond, const WebhookRun &run);
    void release(quint64 id, bool keepAnswer);
    void handlerAnswered(quint64 id, const WebhookReply &reply, bool keepAnswer);
    void send(quint64 id);
    Entry *entry(quint64 id);
    void publish();

    QPointer<WebhookServer> m_server;
    QList<WebhookBreakpoint> m_breakpoints;
    QHash<int, int> m_hits;
    QList<Entry> m_held;
    std::shared_ptr<HeldUids> m_uids;
    int m_nextBreakpointId = FirstBreakpointId;
    quint64 m_nextId = 0;
    bool m_stepInto = false;
    QString m_error;
    QString m_neverHits;
};

} // namespace opbench

Q_DECLARE_METATYPE(opbench::WebhookGateState)

// SPDX-License-Identifier: Apache-2.0
#pragma once
// AdmissionPanel: the webhook calls of the embedded API server (AdmissionListModel), newest on
// top, narrowed by webhook and by kind; the selected call's details below: its verdict and the
// message the client got, warnings, a failure as what it was (unreachable, TLS, timeout, bad
// response; ignored or not), the JSONPatch and the object before and after it as a YAML diff,
// and the request (operation, resource, uid, dry run, url, failurePolicy, latency). Shows
// nothing of its own: it displays what the model holds.
//
// The webhook debugger's bar: "Step into webhook" (hold the next call the operator's webhooks
// get), and, while the gate holds one (a row "held at breakpoint" on top, with the review's
// request in the Request tab), Continue (run the handler, answer) and Step (run the handler,
// show its verdict and patch before answering). Its buttons emit intents for the WebhookGate.
// Where the gate cannot hit (WebhookGateState::neverHits: a real cluster), Step into webhook is
// disabled and its tooltip says why.

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTabWidget;

namespace opbench {
struct HeldWebhookRequest;
struct WebhookGateState;
} // namespace opbench

namespace opbench::apiserver {
struct WebhookCallRecord;
}

namespace opbench::ui {

class AdmissionListModel;
class AdmissionFilterProxy;

class AdmissionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AdmissionPanel(AdmissionListModel *model, QWidget *parent = nullptr);

    /// On a real cluster the API server reports no webhook calls: the panel says so.
    void setEmbedded(bool embedded);

    QTableView *view() const { return m_view; }
    QComboBox *webhookFilter() const { return m_webhookFilter; }
    QComboBox *kindFilter() const { return m_kindFilter; }
    QLabel *countLabel() const { return m_count; }
    /// The selected call's verdict, message, warnings and failure.
    QLabel *summaryLabel() const { return m_summary; }
    /// The JSONPatch and the YAML diff of the object before and after the call.
    QPlainTextEdit *diffView() const { return m_diff; }
    /// The request's fields.
    QPlainTextEdit *requestView() const { return m_request; }
    QTabWidget *detailTabs() const { return m_tabs; }
    /// The debugger's bar.
    QPushButton *continueButton() const { return m_continue; }
    QPushButton *stepButton() const { return m_step; }
    QPushButton *stepIntoButton() const { return m_stepInto; }
    QLabel *holdLabel() const { return m_hold; }

    /// Shows the gate's state: its held requests in the list, the bar's buttons.
    void applyGate(const opbench::WebhookGateState &state);

    /// The YAML diff the Diff tab shows for `record`: the patch operations as comments, then the
    /// object before → after (the object as sent when the call changed nothing).
    static QString diffText(const apiserver::WebhookCallRecord &record);
    /// The summary line(s) for `record` (plain text).
    static QString summaryText(const apiserver::WebhookCallRecord &record);

Q_SIGNALS:
    /// Continue / Step on the held request `id` (the selected one, else the oldest: 0).
    void continueRequested(quint64 id);
    void stepRequested(quint64 id);
    /// Hold the next webhook call.
    void stepIntoRequested(bool on);

private:
    static QString stepIntoTip();
    quint64 selectedHeldId() const;
    void showHeld(const HeldWebhookRequest &held);
    void showSelected();
    void refreshFilters();
    void applyFilters();

    AdmissionListModel *m_model;
    AdmissionFilterProxy *m_proxy;
    QTableView *m_view;
    QComboBox *m_webhookFilter;
    QComboBox *m_kindFilter;
    QLabel *m_count;
    QLabel *m_note;
    QLabel *m_summary;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_diff;
    QPlainTextEdit *m_request;
    QLabel *m_hold;
    QPushButton *m_continue;
    QPushButton *m_step;
    QPushButton *m_stepInto;
};

} // namespace opbench::ui

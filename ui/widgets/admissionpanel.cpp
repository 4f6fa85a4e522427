// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/admissionpanel.h"

#include "ui/models/admissionfilterproxy.h"
#include "ui/models/admissionlistmodel.h"
#include "ui/widgets/palette.h"
#include "ui/yamldiff.h"
#include "ui/yamlhighlighter.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace opbench::ui {

using apiserver::WebhookCallRecord;

namespace {

QPlainTextEdit *readOnlyText(const QString &name, QWidget *parent)
{
    auto *t = new QPlainTextEdit(parent);
    t->setObjectName(name);
    t->setReadOnly(true);
    t->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    t->setFont(mono);
    return t;
}

/// "add /metadata/labels/x: \"y\"" for one JSONPatch operation.
QString describeOperation(const QJsonObject &op)
{
    QString text = op.value(QLatin1String("op")).toString() + u' ' + op.value(QLatin1String("path")).toString();
    if (op.contains(QLatin1String("from")))
        text += QStringLiteral(" from ") + op.value(QLatin1String("from")).toString();
    if (op.contains(QLatin1String("value"))) {
        const QJsonValue v = op.value(QLatin1String("value"));
        QByteArray json;
        if (v.isObject()) {
            json = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
        } else if (v.isArray()) {
            json = QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
        } else {
            json = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact); // "[value]"
            json = json.mid(1, json.size() - 2);
        }
        text += QStringLiteral(": ") + QString::fromUtf8(json);
    }
    return text;
}

QString requestText(const WebhookCallRecord &r)
{
    const QString gr = r.group.isEmpty() ? r.resource : r.resource + u'.' + r.group;
    QStringList lines;
    auto add = [&lines](const QString &field, const QString &value) {
        if (!value.isEmpty())
            lines << QStringLiteral("%1 %2").arg(field + u':', -15).arg(value);
    };
    add(QStringLiteral("webhook"), r.webhook);
    add(QStringLiteral("type"),
        r.kind == WebhookCallRecord::Kind::Conversion ? QStringLiteral("conversion")
            : r.mutating                              ? QStringLiteral("mutating")
                                                      : QStringLiteral("validating"));
    add(QStringLiteral("configuration"), r.configuration);
    add(QStringLiteral("url"), r.url);
    add(QStringLiteral("operation"), r.operation + (r.reinvocation ? QStringLiteral(" (reinvocation)") : QString()));
    add(QStringLiteral("resource"),
        gr + u'/' + r.version + (r.subresource.isEmpty() ? QString() : u'/' + r.subresource));
    add(QStringLiteral("kind"), r.objectKind);
    add(QStringLiteral("namespace"), r.namespaceName);
    add(QStringLiteral("name"), r.name);
    add(QStringLiteral("uid"), r.uid);
    add(QStringLiteral("dryRun"), r.dryRun ? QStringLiteral("true") : QStringLiteral("false"));
    add(QStringLiteral("failurePolicy"), r.failurePolicy);
    add(QStringLiteral("sent at"), r.time.toLocalTime().toString(Qt::ISODateWithMs));
    add(QStringLiteral("latency"), QStringLiteral("%1 ms").arg(double(r.latency.count()) / 1000.0, 0, 'f', 1));
    add(QStringLiteral("answer"),
        AdmissionListModel::verdict(r) + (r.code ? QStringLiteral(" → %1").arg(r.code) : QString()));
    return lines.join(u'\n');
}

} // namespace

AdmissionPanel::AdmissionPanel(AdmissionListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new AdmissionFilterProxy(this))
    , m_view(new QTableView(this))
    , m_webhookFilter(new QComboBox(this))
    , m_kindFilter(new QComboBox(this))
    , m_count(new QLabel(this))
    , m_note(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_diff(readOnlyText(QStringLiteral("admissionDiff"), this))
    , m_request(readOnlyText(QStringLiteral("admissionRequest"), this))
    , m_hold(new QLabel(this))
    , m_continue(new QPushButton(tr("Continue"), this))
    , m_step(new QPushButton(tr("Step"), this))
    , m_stepInto(new QPushButton(tr("Step into webhook"), this))
{
    m_proxy->setSourceModel(model);
    m_view->setObjectName(QStringLiteral("admissionList"));
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(AdmissionListModel::ObjectColumn, QHeaderView::Stretch);
    m_webhookFilter->setObjectName(QStringLiteral("admissionWebhookFilter"));
    m_webhookFilter->setToolTip(tr("Show the calls of one webhook"));
    m_kindFilter->setObjectName(QStringLiteral("admissionKindFilter"));
    m_kindFilter->setToolTip(tr("Show the calls for one kind of object"));
    m_count->setObjectName(QStringLiteral("admissionCount"));
    m_note->setWordWrap(true);
    m_note->setText(tr("Connected to a real cluster: its API server does not report its webhook calls. The "
                       "Admission panel shows the embedded cluster's."));
    m_note->hide();
    m_summary->setObjectName(QStringLiteral("admissionSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Select a call to see what the webhook was sent and what it answered."));
    new YamlDiffHighlighter(m_diff->document());
    m_tabs->addTab(m_diff, tr("Patch / object"));
    m_tabs->addTab(m_request, tr("Request"));

    m_hold->setObjectName(QStringLiteral("admissionHold"));
    m_hold->setWordWrap(true);
    m_continue->setObjectName(QStringLiteral("admissionContinue"));
    m_continue->setToolTip(tr("Run the held webhook's handler and send its answer to the API server"));
    m_continue->setEnabled(false);
    m_step->setObjectName(QStringLiteral("admissionStep"));
    m_step->setToolTip(tr("Run the held webhook's handler and show its answer (verdict, patch) before it is sent; "
                          "Continue then sends it"));
    m_step->setEnabled(false);
    m_stepInto->setObjectName(QStringLiteral("admissionStepInto"));
    m_stepInto->setCheckable(true);
    m_stepInto->setToolTip(stepIntoTip());
    m_stepInto->setEnabled(false);
    auto *debug = new QHBoxLayout;
    debug->addWidget(m_stepInto);
    debug->addWidget(m_continue);
    debug->addWidget(m_step);
    debug->addWidget(m_hold, 1);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_webhookFilter);
    filters->addWidget(m_kindFilter);
    filters->addStretch(1);
    filters->addWidget(m_count);
    auto *details = new QWidget(this);
    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_summary);
    detailsLayout->addWidget(m_tabs, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addLayout(debug);
    layout->addWidget(m_note);
    layout->addWidget(split, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &AdmissionPanel::showSelected);
    connect(model, &QAbstractItemModel::rowsInserted, this, &AdmissionPanel::refreshFilters);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &AdmissionPanel::refreshFilters);
    connect(m_webhookFilter, &QComboBox::currentIndexChanged, this, &AdmissionPanel::applyFilters);
    connect(m_kindFilter, &QComboBox::currentIndexChanged, this, &AdmissionPanel::applyFilters);
    connect(m_continue, &QPushButton::clicked, this, [this] { Q_EMIT continueRequested(selectedHeldId()); });
    connect(m_step, &QPushButton::clicked, this, [this] { Q_EMIT stepRequested(selectedHeldId()); });
    connect(m_stepInto, &QPushButton::clicked, this, &AdmissionPanel::stepIntoRequested);
    refreshFilters();
}

QString AdmissionPanel::stepIntoTip()
{
    return tr("Hold the next request the operator's webhooks get, before the handler runs (as a \"webhook …\" "
              "breakpoint in the Breakpoints dock does)");
}

quint64 AdmissionPanel::selectedHeldId() const
{
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    const HeldWebhookRequest *held = current.isValid() ? m_model->heldAt(current.row()) : nullptr;
    return held ? held->id : 0;
}

void AdmissionPanel::applyGate(const WebhookGateState &state)
{
    m_model->applyHeld(state);
    // Where the gate cannot hit (a real cluster), the button is off and says why.
    m_stepInto->setEnabled(state.attached && state.neverHits.isEmpty());
    m_stepInto->setToolTip(
        state.neverHits.isEmpty() ? stepIntoTip() : tr("Step into webhook: %1").arg(state.neverHits));
    m_stepInto->setChecked(state.stepInto);
    const bool held = !state.held.isEmpty();
    m_continue->setEnabled(held);
    m_step->setEnabled(held);
    if (!held) {
        m_hold->setStyleSheet({});
        m_hold->setText(state.stepInto ? tr("The next webhook call will be held.") : QString());
    } else {
        const HeldWebhookRequest &first = state.held.first();
        m_hold->setStyleSheet(
            QStringLiteral("color: %1; font-weight: bold;").arg(resultColour(ResultColour::Paused).name()));
        m_hold->setText(tr("%n webhook call(s) held — %1 %2 %3 by %4", nullptr, int(state.held.size()))
                            .arg(first.info.operation, first.info.objectKind, first.info.path, first.reason));
    }
    // The debugger shows where it stopped: the first held request, unless one is selected.
    if (held && !m_model->heldAt(m_proxy->mapToSource(m_view->currentIndex()).row()))
        m_view->setCurrentIndex(m_proxy->mapFromSource(m_model->index(0, AdmissionListModel::ObjectColumn)));
    showSelected();
}

void AdmissionPanel::showHeld(const HeldWebhookRequest &held)
{
    const WebhookRequestInfo &i = held.info;
    QStringList lines;
    lines << tr("%1 — %2").arg(i.path, AdmissionListModel::heldVerdict(held));
    lines << tr("Held by %1: %2 %3 %4")
                 .arg(held.reason, i.operation, i.objectKind,
                     i.namespaceName.isEmpty() ? i.name : i.namespaceName + u'/' + i.name);
    if (held.stage == HeldWebhookRequest::Stage::Held)
        lines << tr("Continue runs the handler and answers the API server; Step runs it and shows its answer first. "
                    "The API server waits meanwhile (its timeout is suspended while the workbench holds the call).");
    else if (held.stage == HeldWebhookRequest::Stage::Answered)
        lines << tr("The handler answered %1%2. Continue sends this answer to the API server.")
                     .arg(held.code)
                     .arg(held.failed ? tr(" — the webhook failed") : QString());
    m_summary->setText(lines.join(u'\n'));
    m_diff->setPlainText(held.stage == HeldWebhookRequest::Stage::Answered
            ? QStringLiteral("# the handler's answer: %1\n").arg(held.verdict) + QString::fromUtf8(held.response)
            : tr("# the handler has not run yet"));
    m_request->setPlainText(
        QStringLiteral("# %1 request (uid %2)\n").arg(held.review, i.uid) + QString::fromUtf8(held.request));
}

void AdmissionPanel::setEmbedded(bool embedded) { m_note->setVisible(!embedded); }

void AdmissionPanel::refreshFilters()
{
    auto refill = [](QComboBox *box, const QString &all, const QStringList &names) {
        const QString current = box->currentData().toString();
        const QSignalBlocker block(box);
        box->clear();
        box->addItem(all, QString());
        for (const QString &n : names)
            box->addItem(n, n);
        box->setCurrentIndex(qMax(0, box->findData(current)));
    };
    refill(m_webhookFilter, tr("All webhooks"), m_model->webhooks());
    refill(m_kindFilter, tr("All kinds"), m_model->kinds());
    applyFilters();
}

void AdmissionPanel::applyFilters()
{
    m_proxy->setFilters(m_webhookFilter->currentData().toString(), m_kindFilter->currentData().toString());
    const int shown = m_proxy->rowCount();
    const int all = m_model->rowCount();
    const QString calls = all == 1 ? tr("1 call") : tr("%1 calls").arg(all);
    m_count->setText(shown == all ? calls : tr("%1 of %2").arg(shown).arg(calls));
}

void AdmissionPanel::showSelected()
{
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    if (const HeldWebhookRequest *held = current.isValid() ? m_model->heldAt(current.row()) : nullptr) {
        showHeld(*held);
        return;
    }
    const workbench::WebhookCall *call = current.isValid() ? m_model->callAt(current.row()) : nullptr;
    if (!call) {
        m_summary->setText(tr("Select a call to see what the webhook was sent and what it answered."));
        m_diff->clear();
        m_request->clear();
        return;
    }
    m_summary->setText(summaryText(call->record));
    m_diff->setPlainText(diffText(call->record));
    m_request->setPlainText(requestText(call->record));
}

QString AdmissionPanel::summaryText(const WebhookCallRecord &r)
{
    QStringList lines;
    lines << tr("%1 — %2").arg(r.webhook, AdmissionListModel::verdict(r));
    if (r.failed())
        lines << r.error;
    if (!r.message.isEmpty())
        lines << tr("The client got %1: %2").arg(r.code).arg(r.message);
    else if (r.ignored)
        lines << tr("failurePolicy Ignore: the request went on without this webhook.");
    for (const QString &w : r.warnings)
        lines << tr("Warning: %1").arg(w);
    return lines.join(u'\n');
}

QString AdmissionPanel::diffText(const WebhookCallRecord &r)
{
    QStringList lines;
    if (!r.patch.isEmpty()) {
        lines << (r.patch.size() == 1 ? tr("# JSONPatch from %1 (1 operation)").arg(r.webhook)
                                      : tr("# JSONPatch from %1 (%2 operations)").arg(r.webhook).arg(r.patch.size()));
        for (const QJsonValue op : r.patch)
            lines << QStringLiteral("#   ") + describeOperation(op.toObject());
    }
    if (r.after != r.before) {
        lines << yamlDiff(r.before, r.after, true);
        return lines.join(u'\n');
    }
    lines << (r.patch.isEmpty() ? tr("# no patch: the object as sent") : tr("# the patch changed nothing"));
    for (const QString &line : objectYaml(r.before, true).split(u'\n'))
        if (!line.isEmpty())
            lines << QStringLiteral("  ") + line;
    return lines.join(u'\n');
}

} // namespace opbench::ui

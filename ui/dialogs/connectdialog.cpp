// SPDX-License-Identifier: Apache-2.0
#include "ui/dialogs/connectdialog.h"

#include "ui/session/hostedoperator.h"
#include "ui/widgets/palette.h"

#include "engine/workbench/createform.h"

#include "engine/client/kubeconfig.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace opbench::ui {

namespace {

constexpr int ContextRole = Qt::UserRole + 1;
constexpr int CrdSettleMs = 1000; // a new CRD is served once Established

} // namespace

ConnectDialog::ConnectDialog(const QString &kubeconfigPath, const QString &preselect, QWidget *parent)
    : QDialog(parent)
    , m_probe(new ConnectionProbe(this))
    , m_path(kubeconfigPath)
    , m_pathEdit(new QLineEdit(this))
    , m_list(new QTreeWidget(this))
    , m_message(new QLabel(this))
    , m_test(new QPushButton(tr("Test"), this))
    , m_installCrd(new QPushButton(tr("Install the CRD"), this))
    , m_connect(new QPushButton(tr("Connect"), this))
{
    setWindowTitle(tr("Connect to cluster"));
    resize(720, 420);
    auto *layout = new QVBoxLayout(this);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(new QLabel(tr("Kubeconfig:"), this));
    m_pathEdit->setReadOnly(true);
    pathRow->addWidget(m_pathEdit, 1);
    auto *browse = new QPushButton(tr("Browse…"), this);
    pathRow->addWidget(browse);
    layout->addLayout(pathRow);
    m_list->setObjectName(QStringLiteral("contextList"));
    m_list->setHeaderLabels({tr("Context"), tr("Server"), tr("User"), tr("Namespace")});
    m_list->setRootIsDecorated(false);
    m_list->header()->setSectionResizeMode(QHeaderView::Interactive);
    layout->addWidget(m_list, 1);
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_test, QDialogButtonBox::ActionRole);
    buttons->addButton(m_installCrd, QDialogButtonBox::ActionRole);
    buttons->addButton(m_connect, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    m_installCrd->setVisible(false);
    m_installCrd->setToolTip(tr("Create the CustomResourceDefinitions of operator %1").arg(hostedOperator().name));
    layout->addWidget(buttons);
    connect(browse, &QPushButton::clicked, this, &ConnectDialog::browse);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connectSignals();
    loadContexts();
    if (!selectContext(preselect))
        selectContext(QString());
}

void ConnectDialog::connectSignals()
{
    connect(m_test, &QPushButton::clicked, this, &ConnectDialog::testSelected);
    connect(m_installCrd, &QPushButton::clicked, this, &ConnectDialog::installCrd);
    connect(m_connect, &QPushButton::clicked, this, &ConnectDialog::connectSelected);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, &ConnectDialog::connectSelected);
    connect(m_probe, &ConnectionProbe::finished, this, &ConnectDialog::onProbeFinished);
    connect(m_probe, &ConnectionProbe::crdInstalled, this, [this](bool ok, const QString &message) {
        setBusy(false, message);
        if (ok) // check again once the API server serves the new resource
            QTimer::singleShot(CrdSettleMs, this, &ConnectDialog::testSelected);
    });
}

void ConnectDialog::loadContexts()
{
    m_list->clear();
    auto *embedded = new QTreeWidgetItem(m_list,
        {tr("Embedded cluster (started by opbench)"), tr("127.0.0.1, free port"), tr("admin"),
            QStringLiteral("default")});
    embedded->setData(0, ContextRole, QString());
    auto kc = Kubeconfig::load(m_path);
    if (!kc) {
        m_pathEdit->setText(m_path);
        m_message->setText(tr("No kubeconfig contexts: %1").arg(kc.error().message()));
        return;
    }
    m_pathEdit->setText(kc->files.join(QStringLiteral(" : ")));
    for (const KubeconfigContext &c : std::as_const(kc->contexts)) {
        const KubeconfigCluster *cluster = kc->cluster(c.cluster);
        const QString name = c.name == kc->currentContext ? tr("%1 (current)").arg(c.name) : c.name;
        auto *item = new QTreeWidgetItem(m_list,
            {name, cluster ? cluster->server : tr("(no cluster %1)").arg(c.cluster), c.user,
                c.namespaceName.isEmpty() ? QStringLiteral("default") : c.namespaceName});
        item->setData(0, ContextRole, c.name);
    }
    if (kc->contexts.isEmpty())
        m_message->setText(tr("%1 defines no contexts.").arg(m_pathEdit->text()));
}

void ConnectDialog::browse()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Choose a kubeconfig"), m_path, tr("Kubeconfig (*.yaml *.yml *.conf config);;All files (*)"));
    if (path.isEmpty())
        return;
    m_path = path;
    loadContexts();
    selectContext(QString());
}

QStringList ConnectDialog::contextNames() const
{
    QStringList out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        out.append(m_list->topLevelItem(i)->data(0, ContextRole).toString());
    return out;
}

bool ConnectDialog::selectContext(const QString &context)
{
    const int row = int(contextNames().indexOf(context));
    if (row < 0)
        return false;
    m_list->setCurrentItem(m_list->topLevelItem(row));
    return true;
}

SessionOptions ConnectDialog::selectedOptions() const
{
    SessionOptions o;
    const QTreeWidgetItem *item = m_list->currentItem();
    o.context = item ? item->data(0, ContextRole).toString() : QString();
    if (!o.context.isEmpty())
        o.kubeconfig = m_path; // empty: the KUBECONFIG / ~/.kube/config lookup
    return o;
}

void ConnectDialog::testSelected()
{
    const SessionOptions o = selectedOptions();
    if (o.context.isEmpty()) {
        m_last
            = ProbeResult{ProbeResult::Outcome::Ok, QString(), QString(), tr("The embedded cluster needs no checks.")};
        m_message->setText(m_last.message);
        Q_EMIT probeFinished(m_last);
        if (m_acceptOnSuccess)
            accept();
        return;
    }
    setBusy(true, tr("Checking context \"%1\"…").arg(o.context));
    m_probe->probe(o.kubeconfig, o.context);
}

void ConnectDialog::connectSelected()
{
    m_acceptOnSuccess = true;
    testSelected();
}

void ConnectDialog::installCrd()
{
    const SessionOptions o = selectedOptions();
    setBusy(true, tr("Installing the %1 CRD…").arg(workbench::forKindOf(hostedOperator()).kind));
    m_probe->installCrd(o.kubeconfig, o.context);
}

void ConnectDialog::onProbeFinished(const ProbeResult &result)
{
    m_last = result;
    setBusy(false, result.message);
    const QColor colour = result.ok() ? resultColour(ResultColour::Success) : resultColour(ResultColour::Error);
    m_message->setStyleSheet(QStringLiteral("color: %1").arg(colour.name()));
    m_installCrd->setVisible(result.outcome == ProbeResult::Outcome::CrdMissing);
    const bool accepting = m_acceptOnSuccess && result.ok();
    m_acceptOnSuccess = false;
    Q_EMIT probeFinished(result);
    if (accepting)
        accept();
}

void ConnectDialog::setBusy(bool busy, const QString &text)
{
    m_message->setStyleSheet(QString());
    m_message->setText(text);
    for (QWidget *w : {static_cast<QWidget *>(m_test), static_cast<QWidget *>(m_connect),
             static_cast<QWidget *>(m_installCrd), static_cast<QWidget *>(m_list)})
        w->setEnabled(!busy);
}

} // namespace opbench::ui

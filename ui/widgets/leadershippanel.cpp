// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/leadershippanel.h"

#include "ui/widgets/palette.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace opbench::ui {

namespace {

constexpr int MaxLogLines = 2000;

QString timeText(const QDateTime &t)
{
    return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) : QObject::tr("–");
}

QString coloured(const QString &text, ResultColour c)
{
    return QStringLiteral("<b style=\"color:%1\">%2</b>").arg(resultColour(c).name(), text.toHtmlEscaped());
}

} // namespace

LeadershipPanel::LeadershipPanel(QWidget *parent)
    : QWidget(parent)
    , m_handOff(new QPushButton(tr("Hand off to headless"), this))
    , m_takeBack(new QPushButton(tr("Take back"), this))
    , m_openRecording(new QPushButton(tr("Open the headless run's recording"), this))
    , m_log(new QPlainTextEdit(this))
{
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_lease = addRow(form, tr("Lease"), QStringLiteral("leaseLabel"));
    m_holder = addRow(form, tr("Holder"), QStringLiteral("holderLabel"));
    m_role = addRow(form, tr("This workbench"), QStringLiteral("roleLabel"));
    m_acquired = addRow(form, tr("Acquired"), QStringLiteral("acquiredLabel"));
    m_renewed = addRow(form, tr("Renewed"), QStringLiteral("renewedLabel"));
    m_duration = addRow(form, tr("Lease duration"), QStringLiteral("durationLabel"));
    m_transitions = addRow(form, tr("Transitions"), QStringLiteral("transitionsLabel"));
    m_headless = addRow(form, tr("Headless operator"), QStringLiteral("headlessLabel"));
    m_headless->setWordWrap(true);
    m_headlessCaption = qobject_cast<QLabel *>(form->labelForField(m_headless));
    layout->addLayout(form);
    auto *buttons = new QHBoxLayout;
    m_handOff->setObjectName(QStringLiteral("handOffButton"));
    m_takeBack->setObjectName(QStringLiteral("takeBackButton"));
    m_handOff->setEnabled(false);
    m_takeBack->setEnabled(false);
    buttons->addWidget(m_handOff);
    buttons->addWidget(m_takeBack);
    m_openRecording->setObjectName(QStringLiteral("openRecordingButton"));
    m_openRecording->setVisible(false);
    buttons->addWidget(m_openRecording);
    buttons->addStretch();
    layout->addLayout(buttons);
    m_log->setObjectName(QStringLiteral("headlessLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(MaxLogLines);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The headless operator's stdout and stderr appear here after \"Hand off\"."));
    layout->addWidget(m_log, 1);
    connect(m_handOff, &QPushButton::clicked, this, &LeadershipPanel::onHandOffClicked);
    connect(m_takeBack, &QPushButton::clicked, this, &LeadershipPanel::takeBackRequested);
    connect(m_openRecording, &QPushButton::clicked, this, [this] { Q_EMIT openRecordingRequested(m_recordingPath); });
    apply({});
}

void LeadershipPanel::onHandOffClicked()
{
    if (!m_clusterMode) {
        Q_EMIT handOffRequested();
        return;
    }
    bool ok = false;
    const QString image = QInputDialog::getText(this, tr("Hand off to the cluster"),
        tr("Operator image for Deployment opbench-system/opbench-operator "
           "(the packaging/ manifests and the CRD are applied):"),
        QLineEdit::Normal, m_defaultImage, &ok);
    if (ok && !image.trimmed().isEmpty())
        Q_EMIT clusterHandOffRequested(image.trimmed());
}

QLabel *LeadershipPanel::addRow(QFormLayout *form, const QString &label, const QString &name)
{
    auto *l = new QLabel(this);
    l->setObjectName(name);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(label, l);
    return l;
}

QString LeadershipPanel::holderText(const LeadershipState &s)
{
    if (s.holder.isEmpty())
        return tr("nobody");
    if (s.holder == s.identity)
        return tr("this workbench");
    if (s.holder == s.headlessIdentity)
        return s.headlessPid ? tr("headless opbench-operator (pid %1)").arg(s.headlessPid)
                             : tr("headless opbench-operator");
    return s.holder;
}

QString LeadershipPanel::statusText(const LeadershipState &s)
{
    if (s.role == LeadershipState::Role::Off)
        return tr("leader –");
    if (!s.leaseFound)
        return tr("leader: nobody yet");
    return tr("leader: %1").arg(holderText(s));
}

void LeadershipPanel::apply(const LeadershipState &s)
{
    m_lease->setText(s.leaseName.isEmpty() ? tr("–") : s.leaseNamespace + u'/' + s.leaseName);
    m_lease->setToolTip(s.leaseError);
    if (!s.leaseError.isEmpty())
        m_holder->setText(coloured(s.leaseError, ResultColour::Error));
    else if (!s.leaseFound)
        m_holder->setText(s.role == LeadershipState::Role::Off ? tr("–") : tr("no Lease yet"));
    else
        m_holder->setText(holderText(s).toHtmlEscaped());
    m_holder->setToolTip(s.holder);
    switch (s.role) {
    case LeadershipState::Role::Off:
        m_role->setText(tr("no leader election (the operator is not running)"));
        break;
    case LeadershipState::Role::Leader:
        m_role->setText(coloured(tr("leads: the operator reconciles here"), ResultColour::Success));
        break;
    case LeadershipState::Role::Candidate:
        m_role->setText(s.holder.isEmpty() || s.holder == s.identity
                ? tr("candidate: acquiring the lease…")
                : coloured(
                    tr("follower: waiting for the lease (nothing is reconciled here)"), ResultColour::RequeueAfter));
        break;
    case LeadershipState::Role::HandedOff:
        m_role->setText(coloured(tr("handed off: not campaigning, nothing is reconciled here"), ResultColour::Paused));
        break;
    }
    m_role->setToolTip(tr("Identity: %1").arg(s.identity));
    m_acquired->setText(timeText(s.acquireTime));
    m_renewed->setText(timeText(s.renewTime));
    m_duration->setText(s.leaseFound ? tr("%n second(s)", nullptr, s.leaseDurationSeconds) : tr("–"));
    m_transitions->setText(s.leaseFound ? QString::number(s.transitions) : tr("–"));
    m_clusterMode = s.clusterHandOff;
    m_defaultImage = s.defaultImage;
    if (m_headlessCaption)
        m_headlessCaption->setText(s.clusterHandOff ? tr("In-cluster operator") : tr("Headless operator"));
    if (s.clusterHandOff)
        applyDeployment(s);
    else
        applyHeadless(s);
    applyButtons(s);
    for (const QString &line : s.newLogLines)
        m_log->appendPlainText(line);
}

void LeadershipPanel::applyHeadless(const LeadershipState &s)
{
    using H = LeadershipState::Headless;
    switch (s.headless) {
    case H::None:
        m_headless->setText(
            s.headlessMessage.isEmpty() ? tr("not running") : coloured(s.headlessMessage, ResultColour::Error));
        break;
    case H::Starting:
        m_headless->setText(tr("starting…"));
        break;
    case H::Running:
        m_headless->setText(
            tr("running, pid %1, identity %2").arg(s.headlessPid).arg(s.headlessIdentity).toHtmlEscaped());
        break;
    case H::Stopping:
        m_headless->setText(tr("stopping (SIGTERM sent; it releases the lease)…"));
        break;
    case H::Exited:
        m_headless->setText(s.headlessExitCode == 0 ? s.headlessMessage.toHtmlEscaped()
                                                    : coloured(s.headlessMessage, ResultColour::Error));
        break;
    }
}

void LeadershipPanel::applyDeployment(const LeadershipState &s)
{
    using D = LeadershipState::Deployment;
    m_log->setPlaceholderText(tr("The in-cluster operator logs to its pod: kubectl logs -n opbench-system "
                                 "deployment/opbench-operator"));
    if (s.deployment == D::None)
        m_headless->setText(tr("in-cluster Deployment opbench-system/opbench-operator: not applied by this workbench"));
    else if (s.deployment == D::Failed)
        m_headless->setText(coloured(s.deploymentMessage, ResultColour::Error));
    else
        m_headless->setText(s.deploymentMessage.toHtmlEscaped());
}

void LeadershipPanel::applyButtons(const LeadershipState &s)
{
    m_handOff->setEnabled(s.canHandOff());
    m_takeBack->setEnabled(s.canTakeBack());
    m_recordingPath = s.recordingPath;
    m_openRecording->setVisible(!s.recordingPath.isEmpty());
    m_openRecording->setToolTip(s.recordingMessage);
    if (s.clusterHandOff) {
        m_handOff->setText(tr("Hand off to the cluster…"));
        m_handOff->setToolTip(tr("Apply the CRD and the packaging/ manifests with an operator image you choose "
                                 "(Deployment opbench-system/opbench-operator, 1 replica, this workbench's Lease), "
                                 "then release the lease to its pod."));
        m_takeBack->setToolTip(tr("Scale Deployment opbench-system/opbench-operator to 0, wait until its pods are "
                                  "gone or the Lease is free, and lead again."));
        return;
    }
    m_handOff->setText(tr("Hand off to headless"));
    if (!s.handOffPossible && !s.handOffUnavailable.isEmpty())
        m_handOff->setToolTip(s.handOffUnavailable);
    else
        m_handOff->setToolTip(tr("Start opbench-operator as if it ran in the cluster (service-account files, "
                                 "KUBERNETES_SERVICE_HOST/PORT), release this workbench's lease and let it lead."));
    m_takeBack->setToolTip(tr("Stop the headless operator with SIGTERM (it releases the lease) and lead again."));
}

} // namespace opbench::ui

// SPDX-License-Identifier: Apache-2.0
// MainWindow's Admission dock (the rest of MainWindow is in mainwindow.cpp): every webhook call
// the embedded API server made, tabbed with the Object, Children, Leadership and Faults docks;
// fed by the session's AdmissionLog snapshots, and the webhook gate's held requests (raised when
// one is held); its Continue / Step / Step into buttons post to the gate.
#include "ui/mainwindow.h"

#include "ui/models/admissionlistmodel.h"
#include "ui/widgets/admissionpanel.h"
#include "ui/widgets/infodock.h"

#include "engine/webhook/webhookgate.h"

#include <QDockWidget>

namespace opbench::ui {

void MainWindow::createAdmissionDock(QDockWidget *tabWith)
{
    m_admissionModel = new AdmissionListModel(this);
    m_admissionPanel = new AdmissionPanel(m_admissionModel);
    auto *dock = addDock(tr("Admission"), QStringLiteral("admissionDock"),
        tr("Every admission webhook call the embedded API server made, as kube-apiserver makes them: on each "
           "create, update and delete that a Mutating- or ValidatingWebhookConfiguration's rules match, it sends "
           "the webhook an AdmissionReview. Mutating webhooks run first, in order, and may answer a JSONPatch "
           "(shown as a diff of the object before and after); validating webhooks then allow or deny. A webhook "
           "that cannot be reached, times out or answers nonsense fails the request under failurePolicy Fail "
           "and is skipped under Ignore. The operator's own webhooks can be debugged: a \"webhook …\" "
           "breakpoint (Breakpoints dock) or Step into webhook holds a call before its handler runs; Continue "
           "runs it and answers, Step shows its answer before it is sent."),
        m_admissionPanel, Qt::BottomDockWidgetArea);
    if (tabWith)
        tabifyDockWidget(tabWith, dock);
    m_admissionPanel->setEmbedded(m_session->isEmbedded());
    connect(m_session->admissionLog(), &AdmissionLog::snapshot, m_admissionModel, &AdmissionListModel::apply);
    WebhookGate *gate = m_session->engine()->webhookGate(); // lives on the engine thread: queued
    connect(gate, &WebhookGate::stateChanged, this, [this, dock](const WebhookGateState &state) {
        const bool newlyHeld = !state.held.isEmpty() && m_admissionModel->heldCount() == 0;
        m_admissionPanel->applyGate(state);
        if (newlyHeld) { // the debugger shows where it stopped
            dock->show();
            dock->raise();
        }
    });
    connect(m_admissionPanel, &AdmissionPanel::continueRequested, gate, &WebhookGate::continueRequest);
    connect(m_admissionPanel, &AdmissionPanel::stepRequested, gate, &WebhookGate::stepRequest);
    connect(m_admissionPanel, &AdmissionPanel::stepIntoRequested, gate, &WebhookGate::setStepInto);
}

} // namespace opbench::ui

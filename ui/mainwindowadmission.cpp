// SPDX-License-Identifier: Apache-2.0
// MainWindow's Admission dock (the rest of MainWindow is in mainwindow.cpp): every webhook call
// the embedded API server made, tabbed with the Object, Children, Leadership and Faults docks;
// fed by the session's AdmissionLog snapshots.
#include "ui/mainwindow.h"

#include "ui/models/admissionlistmodel.h"
#include "ui/widgets/admissionpanel.h"
#include "ui/widgets/infodock.h"

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
           "and is skipped under Ignore."),
        m_admissionPanel, Qt::BottomDockWidgetArea);
    if (tabWith)
        tabifyDockWidget(tabWith, dock);
    m_admissionPanel->setEmbedded(m_session->isEmbedded());
    connect(m_session->admissionLog(), &AdmissionLog::snapshot, m_admissionModel, &AdmissionListModel::apply);
}

} // namespace opbench::ui

// SPDX-License-Identifier: Apache-2.0
// MainWindow's parts that follow the hosted operator's definition (the rest of MainWindow is in
// mainwindow.cpp): the Children panel's create form (and --create-from-form), the controller
// picker (one entry per controller the definition registered), the idle hint in the kind's own
// words.
#include "ui/mainwindow.h"

#include "ui/models/reconcilelistmodel.h"
#include "ui/session/hostedoperator.h"
#include "ui/widgets/childrenpanel.h"
#include "ui/widgets/createformwidget.h"
#include "ui/widgets/reconcilespanel.h"

#include "engine/api/yamlcodec.h"
#include "engine/workbench/createform.h"
#include "engine/workbench/tour.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QToolBar>

namespace opbench::ui {

workbench::CreateForm MainWindow::hostedCreateForm()
{
    auto form = workbench::createFormFor(hostedOperator());
    if (form)
        return *form;
    workbench::CreateForm fallback; // a YAML editor with the error as its reason
    fallback.gvk = workbench::forKindOf(hostedOperator());
    fallback.unsupportedReason = form.error().message();
    return fallback;
}

void MainWindow::connectDefinition()
{
    const WorkbenchEngine *engine = m_session->engine();
    connect(m_childrenPanel, &ChildrenPanel::createRequested, m_session, &EngineSession::createObject);
    m_reconcilesPanel->idleHint()->setText(workbench::idleHint(m_tour->subject()));
    // A definition that left its kinds out gets them from its controllers once set up: the
    // tour and the hint then know the kind's children too.
    connect(engine, &WorkbenchEngine::kindsResolved, this, [this](const QStringList &kinds) {
        if (!hostedOperator().kinds.isEmpty())
            return;
        OperatorDefinition def = hostedOperator();
        for (const QString &k : kinds) {
            const QStringList parts = k.split(u'/');
            if (parts.size() == 3)
                def.kinds.append(GroupVersionKind(parts.at(0), parts.at(1), parts.at(2)));
        }
        setHostedOperator(std::move(def));
        m_tour->setSubject(workbench::TourSubject::of(hostedOperator()));
        m_reconcilesPanel->idleHint()->setText(workbench::idleHint(m_tour->subject()));
    });

    // Every controller of the definition: the picker chooses the one the Reconciles and Queue
    // panels and the stepping actions follow.
    auto *tb = findChild<QToolBar *>(QStringLiteral("controlToolBar"));
    m_controllerPicker = new QComboBox(this);
    m_controllerPicker->setObjectName(QStringLiteral("controllerPicker"));
    m_controllerPicker->setToolTip(tr("The controller the Reconciles and Queue panels and the stepping actions show"));
    m_controllerPicker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_controllerPicker->setEnabled(false);
    if (tb) {
        tb->addSeparator();
        tb->addWidget(new QLabel(tr(" Controller "), this));
        tb->addWidget(m_controllerPicker);
    }
    connect(
        engine, &WorkbenchEngine::controllersChanged, this, [this](const QStringList &names, const QString &current) {
            const QSignalBlocker block(m_controllerPicker);
            m_controllerPicker->clear();
            m_controllerPicker->addItems(names);
            m_controllerPicker->setCurrentText(current);
            m_controllerPicker->setEnabled(names.size() > 1);
            statusBar()->showMessage(
                tr("Showing controller %1 (%2 of the operator's %n controller(s))", nullptr, int(names.size()))
                    .arg(current)
                    .arg(names.indexOf(current) + 1),
                5000);
        });
    connect(m_controllerPicker, &QComboBox::currentTextChanged, this, [this](const QString &name) {
        if (name.isEmpty())
            return;
        m_reconcileModel->clear(); // the list shows the chosen controller's reconciles
        m_session->post(&WorkbenchEngine::selectController, name);
    });
}

void MainWindow::createFromForm(const QString &name)
{
    CreateFormWidget *form = m_childrenPanel->createForm();
    if (form->showsYaml()) { // the sample's YAML, renamed
        if (auto o = workbench::objectFromYaml(form->yamlEdit()->toPlainText().toUtf8())) {
            QJsonObject json = o->json();
            QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
            meta.insert(QStringLiteral("name"), name);
            json.insert(QStringLiteral("metadata"), meta);
            form->yamlEdit()->setPlainText(QString::fromUtf8(jsonToYaml(json)));
        }
    } else {
        form->nameEdit()->setText(name);
    }
    const auto o = form->object();
    m_formCreated = o
        ? (o->namespaceName().isEmpty() && form->form().namespaced ? QStringLiteral("default/") + name : o->key())
        : name;
    form->createButton()->click();
}

QJsonObject MainWindow::formReport() const
{
    if (m_formCreated.isEmpty())
        return {};
    int reconciles = 0;
    for (int row = 0; row < m_reconcileModel->rowCount(); ++row)
        reconciles += m_reconcileModel->traceAt(row).request.toString() == m_formCreated ? 1 : 0;
    return {{QStringLiteral("key"), m_formCreated}, {QStringLiteral("reconciles"), reconciles}};
}

} // namespace opbench::ui

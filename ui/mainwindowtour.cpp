// SPDX-License-Identifier: Apache-2.0
// MainWindow's guided tour: where its dock lives, what it watches, and the lessons' buttons.
#include "ui/mainwindow.h"

#include "ui/widgets/cachepanel.h"
#include "ui/widgets/faultspanel.h"
#include "ui/widgets/tourpanel.h"

#include "engine/workbench/tour.h"
#include "engine/workbench/tourkubectl.h"

#include <QDockWidget>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>
#include <QThread>

namespace opbench::ui {

void MainWindow::placeTourDock()
{
    // Its own column at the right edge: a lesson raises its dock beside the tour, never over it.
    removeDockWidget(m_tourDock);
    addDockWidget(Qt::RightDockWidgetArea, m_tourDock, Qt::Horizontal);
    resizeDocks({m_tourDock}, {300}, Qt::Horizontal);
}

void MainWindow::connectTour()
{
    const CacheFeed *feed = m_session->cacheFeed();
    const QueueObserver *queue = m_session->queue();
    const ControllerObserver *controller = m_session->controller();
    // The tour watches the same events the panels show.
    connect(feed, &CacheFeed::batch, m_tour, &workbench::Tour::observeCache);
    connect(feed, &CacheFeed::cacheAt, m_tour, &workbench::Tour::observeTimeTravel);
    connect(queue, &QueueObserver::sample, m_tour, &workbench::Tour::observeQueue);
    connect(controller, &ControllerObserver::controlState, m_tour, &workbench::Tour::observeControl);
    connect(controller, &ControllerObserver::reconcilesFinished, m_tour, &workbench::Tour::observeTraces);
    connect(m_session->leadership(), &Leadership::leadershipState, m_tour, &workbench::Tour::observeLeadership);
    connect(m_session->admissionLog(), &AdmissionLog::snapshot, m_tour, &workbench::Tour::observeAdmission);
    connect(m_tour, &workbench::Tour::stateChanged, this, &MainWindow::onTourState);
    if (!m_session->isEmbedded()) { // no webhook calls reported: the webhook lessons could not complete
        workbench::TourSubject subject = m_tour->subject();
        subject.webhooks = false;
        m_tour->setSubject(subject);
    }
    connect(m_tourPanel, &TourPanel::startRequested, this, &MainWindow::startTour);
    connect(m_tourPanel, &TourPanel::nextRequested, m_tour, &workbench::Tour::next);
    connect(m_tourPanel, &TourPanel::backRequested, m_tour, &workbench::Tour::back);
    connect(m_tourPanel, &TourPanel::stopRequested, m_tour, &workbench::Tour::stop);
    connect(m_tourPanel, &TourPanel::faultRequested, this, &MainWindow::armTourFault);
    connect(m_tourPanel, &TourPanel::relistRequested, this, &MainWindow::dropWatchesForTour);
    // The lessons' kubectl requests go out on the engine thread, as every other request does.
    auto *kubectl = new workbench::TourKubectl; // deleted on its thread when that finishes
    QThread *engineThread = m_session->engine()->thread();
    kubectl->moveToThread(engineThread);
    connect(engineThread, &QThread::finished, kubectl, &QObject::deleteLater);
    connect(kubectl, &workbench::TourKubectl::answered, m_tourPanel, &TourPanel::showAnswer);
    connect(m_tourPanel, &TourPanel::kubectlRequested, this, [this, target = QPointer(kubectl)] {
        const workbench::TourRequest request = m_tour->state().lesson.request;
        const QString kubeconfig = m_session->cluster().kubeconfigPath;
        QMetaObject::invokeMethod(target.data(), [target, request, kubeconfig] {
            if (target)
                target->send(request, kubeconfig);
        });
    });
    // The relist lesson's mark, where the learner looks: the Cache panel's header.
    connect(feed, &CacheFeed::batch, m_cachePanel, [this](const CacheBatch &b) {
        if (!b.informers.isEmpty())
            m_cachePanel->showRelists(b.informers);
    });
}

void MainWindow::startTour()
{
    QSettings settings;
    const int resume = m_tour->state().finished ? 0 : settings.value(QStringLiteral("tour/lesson"), 0).toInt();
    m_tourDock->show();
    m_tourDock->raise();
    m_tour->start(resume);
}

void MainWindow::onTourState(const workbench::TourState &state)
{
    m_tourPanel->apply(state);
    QSettings settings;
    if (state.index >= 0)
        settings.setValue(QStringLiteral("tour/lesson"), state.finished ? 0 : state.index);
    // The dock that shows the lesson is raised and framed, beside the tour (a layout the learner
    // or an old saved state tabbed together is split first, so the instructions stay in view).
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        const bool target = state.index >= 0 && !state.finished && dock->objectName() == state.lesson.panel;
        dock->setStyleSheet(
            target ? QStringLiteral("QDockWidget > QWidget { border: 2px solid #f9a825; }") : QString());
        if (!target)
            continue;
        if (tabifiedDockWidgets(m_tourDock).contains(dock))
            placeTourDock();
        dock->show();
        dock->raise();
    }
}

void MainWindow::armTourFault(const QString &fault)
{
    m_session->setFaults(m_faultsPanel->specs() << fault);
    statusBar()->showMessage(tr("Fault armed: %1").arg(fault), 8000);
}

void MainWindow::dropWatchesForTour()
{
    m_session->compactHistory(); // the watches cannot resume from their resourceVersion: 410 → relist
    m_session->dropWatches();
}

} // namespace opbench::ui

// SPDX-License-Identifier: Apache-2.0
#pragma once
// TourKubectl: the requests the tour's lesson buttons send (TourRequest: a create, a read at a
// served version), sent as kubectl sends them (its User-Agent, the cluster's kubeconfig) and
// answered in kubectl's words: `myapplication.example.com/tagged created`, the object as
// `-o yaml` prints it (without managedFields), or the error as kubectl prints it (`The
// MyApplication "bare" is invalid: spec.image: Invalid value: …`). Lives on the engine thread
// (the window moves it there and posts to send()); the admission and conversion lessons watch
// what the API server did with the request in the Admission dock, not here.
//
//   auto *kubectl = new TourKubectl;            // no parent: moved to the engine thread
//   kubectl->moveToThread(engineThread);
//   connect(kubectl, &TourKubectl::answered, panel, &TourPanel::showAnswer);
//   // on the engine thread: kubectl->send(tour->state().lesson.request, kubeconfigPath);

#include "engine/workbench/tour.h"

#include "engine/api/status.h"

#include <QObject>

#include <qcoro/qcorotask.h>

namespace opbench {
class RestClient;
} // namespace opbench

namespace opbench::workbench {

/// The User-Agent the tour's requests carry (kubectl's form: a fault aimed at the operator's
/// writes, `agent=opbench/`, never hits them).
inline constexpr auto TourKubectlAgent = "kubectl/v1.30.0 (linux/amd64) opbench-tour";

/// `status` as kubectl prints it: `The Kind "name" is invalid: field: message` for a 422 with
/// causes (several: one `* field: message` line each), `Error from server (Reason): message`
/// otherwise, the transport's message for a request that got no answer.
QString kubectlErrorText(const Status &status);

class TourKubectl : public QObject
{
    Q_OBJECT
public:
    explicit TourKubectl(QObject *parent = nullptr);

    /// Sends `request` to the cluster of `kubeconfigPath` (loaded once per path); answered()
    /// follows. Call it on this object's thread.
    void send(const opbench::workbench::TourRequest &request, const QString &kubeconfigPath);

Q_SIGNALS:
    /// `request.command`, whether the request succeeded, and what kubectl would print.
    void answered(const QString &command, bool ok, const QString &output);

private:
    QCoro::Task<void> run(TourRequest request, QString kubeconfigPath);
    RestClient *client(const QString &kubeconfigPath, QString *error);

    RestClient *m_client = nullptr; // child: deleted with this, which finishes its pending calls
    QString m_kubeconfigPath;
};

} // namespace opbench::workbench

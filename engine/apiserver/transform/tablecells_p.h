// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to the Table printers (tableprinters.cpp): how each built-in column reads its cell
// from an object, as kube-apiserver's printers compute them (pod readiness and restarts,
// service IPs and ports, event times and subjects, RBAC subjects, node roles and addresses).

#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>

namespace opbench::apiserver::tableprint {

// ---- small readers ------------------------------------------------------------------------

QJsonValue at(const QJsonObject &o, const char *path);
QString text(const QJsonObject &o, const char *path);
qint64 integer(const QJsonObject &o, const char *path);
QString orNone(const QString &s);
QString age(const QJsonObject &o, const QDateTime &now);
/// "a=b,c=d" (keys sorted), "<none>" when empty: labels.FormatLabels.
QString formatLabels(const QJsonObject &labels);
/// metav1.FormatLabelSelector: matchLabels, then "key op (values)" expressions.
QString formatSelector(const QJsonObject &selector);
QString containerField(const QJsonObject &o, const char *containersPath, const char *field);

// ---- pods ---------------------------------------------------------------------------------

struct PodSummary
{
    int ready = 0;
    int total = 0;
    qint64 restarts = 0;
    QDateTime lastRestart;
    QString reason;
};

PodSummary summarizePod(const QJsonObject &o);
QJsonValue podRestarts(const QJsonObject &o, const QDateTime &now);
QString readinessGates(const QJsonObject &o);

// ---- services -----------------------------------------------------------------------------

QString servicePorts(const QJsonObject &o);
QString serviceClusterIp(const QJsonObject &o);
QString serviceExternalIp(const QJsonObject &o);

// ---- events (core/v1 and events.k8s.io/v1 serve the same objects) ---------------------------

QString eventField(const QJsonObject &o, const char *core, const char *eventsV1);
QString eventFirstSeen(const QJsonObject &o, const QDateTime &now);
QString eventLastSeen(const QJsonObject &o, const QDateTime &now);
qint64 eventCount(const QJsonObject &o);
QJsonObject eventSubject(const QJsonObject &o);
QString eventSource(const QJsonObject &o);
QString roleRef(const QJsonObject &o);
QString subjects(const QJsonObject &o, const char *kind);
QString nodeStatus(const QJsonObject &o);
QString nodeRoles(const QJsonObject &o);
QString nodeAddress(const QJsonObject &o, const char *type);

} // namespace opbench::apiserver::tableprint

// SPDX-License-Identifier: Apache-2.0
#pragma once
// The admission area (calls admission webhooks as kube-apiserver does; issue 24): one write as an
// admission request (AdmissionAttributes) and the admission.k8s.io/v1 AdmissionReview sent for it,
// with every field kube-apiserver fills (uid, kind, resource, subResource, requestKind,
// requestResource, requestSubResource, name, namespace, operation, userInfo, object, oldObject,
// dryRun, options).

#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>
#include <QString>

namespace opbench::apiserver {

struct AdmissionAttributes
{
    QString operation; // CREATE, UPDATE, DELETE
    ResourceType type;
    QString subresource; // "", "status", "scale"
    QString namespaceName;
    QString name;
    QJsonObject object;    // served form; empty for DELETE
    QJsonObject oldObject; // empty for CREATE
    bool dryRun = false;
    QJsonObject options; // CreateOptions / UpdateOptions / DeleteOptions (meta.k8s.io/v1)
    QString user;        // the authenticated user name
};

/// The AdmissionReview v1 for `attributes` with request uid `uid`.
QJsonObject admissionReview(const AdmissionAttributes &attributes, const QString &uid);

/// The options object kube-apiserver sends: `kind` CreateOptions/UpdateOptions/DeleteOptions.
QJsonObject admissionOptions(const QString &kind, bool dryRun, const QString &fieldManager);

} // namespace opbench::apiserver

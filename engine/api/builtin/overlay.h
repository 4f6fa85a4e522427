// SPDX-License-Identifier: Apache-2.0
#pragma once
// The overlay: how typed setters of built-in kinds write onto an object read from the server
// without rewriting what the server defaulted (SDK 0.3).
//
// A setter such as Deployment::setTemplate(PodTemplate{…}) or Service::setPorts({…}) builds the
// *desired* JSON of the field from the value type (unset optional fields are omitted) and
// overlays it onto the *existing* JSON of the object, which may carry server defaults
// (`protocol: TCP`, `targetPort`, `terminationMessagePath`, `imagePullPolicy`, `dnsPolicy`, a
// cluster IP, …). The rule, applied recursively:
//
//   - objects merge: a key of `desired` overwrites (overlays) the existing value, a key only in
//     `existing` is kept, a key whose desired value is null is removed;
//   - string maps the author owns whole are replaced, not merged: the values of the keys
//     `labels`, `annotations`, `selector`, `matchLabels`, `nodeSelector`, `requests`, `limits`,
//     `data`, `stringData` and `binaryData` (the server never defaults inside them, and
//     `setSelector({a})` must drop a key `b` set before);
//   - one-of fields: when `desired` sets one member of a union, the other members are dropped
//     from `existing` (a probe's or handler's httpGet/tcpSocket/exec/grpc; an env var's
//     value/valueFrom; a key source's secretKeyRef/configMapKeyRef/fieldRef/resourceFieldRef; a
//     volume's configMap/secret/emptyDir/persistentVolumeClaim/hostPath/projected/downwardAPI/
//     csi/nfs/ephemeral), so switching a probe from httpGet to tcpSocket yields a valid probe;
//   - arrays of objects of the same length merge element by element, except that an element
//     whose `name` differs from the existing element's `name` replaces it (a renamed container
//     does not inherit another container's defaults);
//   - any other array (a different length, scalars such as `command` or `capabilities.drop`)
//     and any other value replaces the existing one.
//
// So a read-modify-write that applies the same setters to the object the server returned
// yields the same JSON (createOrUpdate does not write), and changing one container field
// changes that field only.
//
// Clearing: leaving an optional field unset means "keep what is there", so it cannot remove a
// field. To remove one, use the view's explicit setter: `removeContainerField(container,
// "livenessProbe")`, `replaceTemplate(t)` / `replacePorts(ports)` (exact, no overlay: the server
// fills its defaults in again on the next write), ConfigMap::remove(key), or overlay a JSON null.
// Consequence worth knowing: a kept default does not follow a change of the field it derives
// from (a Service port changed from 80 to 81 with targetPort unset keeps targetPort 80, as it
// does when a Go controller edits the read object in place); set it explicitly when it matters.

#include <QJsonObject>
#include <QJsonValue>

#include <initializer_list>

namespace opbench {

/// `desired` overlaid onto `existing` (see the rule above).
QJsonValue overlay(const QJsonValue &existing, const QJsonValue &desired);
/// The object form of overlay().
QJsonObject overlayObject(const QJsonObject &existing, const QJsonObject &desired);
/// True for the keys whose string-map values are replaced whole ("labels", "requests", …).
bool isReplacedWhole(const QString &key);
/// Overlays `desired` onto the value at `path` of `document` (intermediate objects are created).
void overlayAt(QJsonObject &document, std::initializer_list<const char *> path, const QJsonValue &desired);

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#pragma once
// Readable object diffs: an object as YAML, and the line diff (ui/linediff.h) of two objects'
// YAML, optionally without the noise fields a write or a read always changes —
// metadata.resourceVersion, metadata.managedFields, metadata.uid, metadata.creationTimestamp and
// the generation bookkeeping (metadata.generation, status.observedGeneration and each status
// condition's observedGeneration) — so what the
// reconciler changed stands out. A trace's diff entries (path, old, new) get the same YAML form.

#include "engine/controller/jsondiff.h"
#include "engine/controller/reconciletrace.h"

#include <QJsonObject>
#include <QStringList>

namespace opbench::ui {

/// `object` without the noise fields (see above).
QJsonObject withoutNoise(QJsonObject object);
/// `object` as YAML ("" for an empty object), without the noise fields when `hideNoise`.
QString objectYaml(const QJsonObject &object, bool hideNoise);
/// The line diff of `before`'s YAML to `after`'s, without the noise fields when `hideNoise`.
QStringList yamlDiff(const QJsonObject &before, const QJsonObject &after, bool hideNoise, int context = 3);
/// The object that holds each entry's old value (`newSide` false) or new value at its path: the
/// skeleton of the changed fields with their parent keys (list items before a changed one are
/// "…"). Keys under labels, annotations and data are kept whole ("app.kubernetes.io/name").
QJsonObject diffSkeleton(const QList<DiffEntry> &entries, bool newSide);
/// `entries` as a YAML line diff of the skeletons (the parent keys are the context); empty when
/// every entry is noise and `hideNoise`.
QStringList entriesYamlDiff(const QList<DiffEntry> &entries, bool hideNoise);
/// Every write of `calls` with its YAML diff, under a "# verb Kind ns/name" comment line; a write
/// that changed only noise says so. "" when no call wrote anything.
QString callsYamlDiff(const QList<TraceCall> &calls, bool hideNoise);

} // namespace opbench::ui

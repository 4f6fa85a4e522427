// SPDX-License-Identifier: Apache-2.0
#pragma once
// Readable object diffs: an object as YAML, and the line diff (ui/linediff.h) of two objects'
// YAML, optionally without the noise fields a write or a read always changes —
// metadata.resourceVersion, metadata.managedFields, and the generation bookkeeping
// (metadata.generation, status.observedGeneration) — so what the reconciler changed stands out.

#include <QJsonObject>
#include <QStringList>

namespace opbench::ui {

/// `object` without the noise fields (see above).
QJsonObject withoutNoise(QJsonObject object);
/// `object` as YAML ("" for an empty object), without the noise fields when `hideNoise`.
QString objectYaml(const QJsonObject &object, bool hideNoise);
/// The line diff of `before`'s YAML to `after`'s, without the noise fields when `hideNoise`.
QStringList yamlDiff(const QJsonObject &before, const QJsonObject &after, bool hideNoise, int context = 3);

} // namespace opbench::ui

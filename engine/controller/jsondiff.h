// SPDX-License-Identifier: Apache-2.0
#pragma once
// jsonDiff: what changed between two JSON documents, as a list of paths with old and new values
// (for the reconcile trace's write diffs and the GUI's diff view).

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace opbench {

struct DiffEntry
{
    /// Dotted path with array indexes: "spec.template.spec.containers[0].image".
    QString path;
    QJsonValue oldValue; ///< undefined when the path was added
    QJsonValue newValue; ///< undefined when the path was removed

    [[nodiscard]] QJsonObject toJson() const;
    friend bool operator==(const DiffEntry &, const DiffEntry &) = default;
};

/// The leaves that differ between `before` and `after`, in key order. Objects are compared key by
/// key; arrays of equal length element by element; arrays of different length are reported
/// as one change of the whole array; an object that appears or disappears is reported leaf by
/// leaf. `metadata.managedFields` is ignored.
QList<DiffEntry> jsonDiff(const QJsonObject &before, const QJsonObject &after);

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#pragma once
// Condition: one entry of status.conditions (Deployment, Pod, custom resources).

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace opbench {

struct Condition
{
    QString type;
    QString status; // "True", "False", "Unknown"
    QString reason;
    QString message;
    QString lastUpdateTime;        // RFC 3339 (Deployments)
    QString lastTransitionTime;    // RFC 3339
    qint64 observedGeneration = 0; // 0 = absent

    bool isTrue() const { return status == QLatin1String("True"); }
    /// Only the fields that are set (empty strings and 0 are omitted).
    QJsonObject toJson() const;
    static Condition fromJson(const QJsonObject &o);
    friend bool operator==(const Condition &, const Condition &) = default;
};

/// The condition of `type` in a status.conditions array.
std::optional<Condition> findCondition(const QJsonArray &conditions, const QString &type);
/// Sets `c` in `conditions` (replacing the entry of the same type, keeping its unknown fields).
/// lastTransitionTime becomes `now` when the status changes or the condition is new, and is
/// kept otherwise; lastUpdateTime is left as given. Returns true when anything changed.
bool setCondition(QJsonArray &conditions, Condition c, const QDateTime &now);

} // namespace opbench

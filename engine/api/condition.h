// SPDX-License-Identifier: Apache-2.0
#pragma once
// Condition: one entry of status.conditions (Deployment, Pod, custom resources).

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace opbench {

class Clock;

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
/// apimachinery's meta.SetStatusCondition on a status.conditions array: a new type is appended
/// (lastTransitionTime = the one given, or `now` when empty); for an existing type, a changed
/// status sets lastTransitionTime (the one given, or `now`), and a changed reason, message or
/// observedGeneration is copied; an unchanged status keeps the old lastTransitionTime. Unknown
/// fields of the entry survive. Returns true when anything changed.
bool setStatusCondition(QJsonArray &conditions, const Condition &c, const QDateTime &now);

// The same on a typed status's list (`QList<Condition> conditions;` of a CustomResource status),
// as Go's meta.SetStatusCondition(&status.Conditions, c). `clock` defaults to the system clock.
bool setStatusCondition(QList<Condition> &conditions, const Condition &c, const Clock *clock = nullptr);
bool setStatusCondition(QList<Condition> &conditions, const Condition &c, const QDateTime &now);
std::optional<Condition> findStatusCondition(const QList<Condition> &conditions, const QString &type);
bool isStatusConditionTrue(const QList<Condition> &conditions, const QString &type);

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kubernetes timestamps: metav1.Time (RFC 3339, whole seconds, UTC "Z": 2024-05-01T10:00:00Z) and
// metav1.MicroTime (six fractional digits: 2024-05-01T10:00:00.123456Z). QDateTime keeps
// milliseconds, so the last three micro digits are written as 000 and dropped when read.

#include <QDateTime>
#include <QString>

namespace opbench {

/// "2024-05-01T10:00:00Z" (converted to UTC, fraction dropped). Empty for an invalid QDateTime.
QString formatTimestamp(const QDateTime &t);
/// "2024-05-01T10:00:00.123000Z" (converted to UTC). Empty for an invalid QDateTime.
QString formatMicroTime(const QDateTime &t);
/// Parses either form (any number of fraction digits; "Z" or a ±hh:mm offset) into UTC.
/// Returns an invalid QDateTime when `text` is not an RFC 3339 timestamp.
QDateTime parseTimestamp(const QString &text);
/// Same as parseTimestamp (MicroTime is a timestamp with a fraction).
inline QDateTime parseMicroTime(const QString &text) { return parseTimestamp(text); }

} // namespace opbench

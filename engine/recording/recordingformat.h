// SPDX-License-Identifier: Apache-2.0
#pragma once
// The recording file format (docs/recording.md): JSON lines, one record each, every record an
// object starting with its sequence number and type tag: {"seq":N,"t":"ev",…}. The first record of
// every file is the header (seq 0). These helpers build record bodies (everything after "seq")
// and redact what a recording must never hold: Secret values are replaced by kRedacted.

#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/queue/cause.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace opbench::recording {

/// The format written: 2 added the raw informer records (lp, ws, we, wx) and queue adds (qa).
inline constexpr char kFormat[] = "opbench-recording/2";
/// The first format (no raw records); still read and replayed.
inline constexpr char kFormatV1[] = "opbench-recording/1";
inline constexpr char kRedacted[] = "<redacted>";

/// Appends `s` as a JSON string (quoted, escaped).
void appendString(QByteArray &out, QStringView s);
/// Appends `,"key":"value"`.
void appendField(QByteArray &out, const char *key, QStringView value);
/// Appends `,"key":n`.
void appendField(QByteArray &out, const char *key, qint64 value);
/// Appends `,"key":true|false`.
void appendBool(QByteArray &out, const char *key, bool value);

/// The object as compact JSON, with a Secret's data and stringData values replaced by
/// kRedacted (keys kept, so a replay still sees which keys exist).
QByteArray redactedJson(const Object &obj);
/// The same redaction on a JSON document (a Secret's data/stringData).
QJsonObject redacted(QJsonObject json);
/// True for core/v1 Secret.
bool isSecret(const GroupVersionKind &gvk);

/// `json` without fields that change from run to run whatever the reconciler does
/// (resourceVersion, managedFields, creationTimestamp, condition and heartbeat times): what a
/// replay compares written objects on.
QJsonObject withoutVolatile(QJsonObject json);

/// The Cause whose describe() is `text` (a `qa` record's cause, an `re` record's causes): a
/// watch, owner or initial-list event with its object and resourceVersion, a requeue after a
/// delay, a retry (attempt, backoff, error), a manual one. A text of no known form comes back as
/// a manual cause carrying it, so nothing recorded is lost.
Cause causeFromText(const QString &text);

} // namespace opbench::recording

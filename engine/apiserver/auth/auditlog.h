// SPDX-License-Identifier: Apache-2.0
#pragma once
// AuditLog: one JSON line per request (--audit-log PATH):
//   {"time":"2024-05-01T10:00:00.123Z","user":"admin","verb":"create","resource":"configmaps",
//    "namespace":"default","name":"demo","code":201,"uri":"/api/v1/namespaces/default/configmaps"}
// Lines are flushed as written. Tokens and bodies are never logged.

#include "engine/api/expected.h"
#include "engine/apiserver/http/requestinfo.h"

#include <QFile>

namespace opbench::apiserver {

class AuditLog
{
public:
    /// Opens (appends to) `path`; an error names the path.
    Expected<void> open(const QString &path);
    bool isOpen() const { return m_file.isOpen(); }
    void record(const QString &user, const RequestInfo &info, const QByteArray &method, int code);

private:
    QFile m_file;
};

} // namespace opbench::apiserver

// SPDX-License-Identifier: Apache-2.0
#pragma once
// StateFile (--state-file PATH): the embedded cluster across restarts. It keeps every object,
// the resourceVersion counter, the CA, the serving certificate and the token, so a restart
// serves the same objects, continues resourceVersions and the old kubeconfig still works.
//
// Writes are atomic (temporary file + rename, via QSaveFile), mode 0600, debounced (a burst of
// writes costs one save) and flushed on demand (shutdown). A file that cannot be parsed is
// refused with a message naming it and is never overwritten.

#include "engine/api/expected.h"
#include "engine/apiserver/tls.h"

#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <functional>
#include <optional>

namespace opbench::apiserver {

struct ServerState
{
    QString token;
    TlsMaterial tls;
    QJsonObject store; // Store::snapshot()
};

class StateFile : public QObject
{
    Q_OBJECT
public:
    explicit StateFile(QString path, QObject *parent = nullptr);

    const QString &path() const { return m_path; }
    /// std::nullopt when the file does not exist; an error when it exists but is unreadable or
    /// corrupt ("state file PATH is corrupt: …; refusing to start (the file was left untouched)").
    Expected<std::optional<ServerState>> load() const;
    /// Writes `state` atomically.
    Expected<void> save(const ServerState &state);

    /// Debounced saving: markDirty() schedules a save of `snapshot()` after `debounceMs`.
    void setSnapshotFunction(std::function<ServerState()> snapshot, int debounceMs = 200);
    void markDirty();
    /// Saves now when dirty.
    Expected<void> flush();

Q_SIGNALS:
    void saveFailed(const QString &message);

private:
    QString m_path;
    std::function<ServerState()> m_snapshot;
    QTimer m_debounce;
    bool m_dirty = false;
};

} // namespace opbench::apiserver

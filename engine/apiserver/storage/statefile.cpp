// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/storage/statefile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace opbench::apiserver {

namespace {
const QLatin1String kKind("OpbenchApiServerState");
}

StateFile::StateFile(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_debounce(this)
{
    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, [this]() {
        if (auto ok = flush(); !ok)
            Q_EMIT saveFailed(ok.error().message());
    });
}

Expected<std::optional<ServerState>> StateFile::load() const
{
    if (!QFileInfo::exists(m_path))
        return std::optional<ServerState>();
    auto corrupt = [this](const QString &why) {
        return Status::internalError(
            QStringLiteral("state file %1 is corrupt: %2; refusing to start (the file was left untouched)")
                .arg(m_path, why));
    };
    QFile f(m_path);
    if (!f.open(QIODevice::ReadOnly))
        return Status::internalError(QStringLiteral("cannot read state file %1: %2").arg(m_path, f.errorString()));
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (err.error != QJsonParseError::NoError)
        return corrupt(QStringLiteral("%1 at offset %2").arg(err.errorString()).arg(err.offset));
    const QJsonObject o = doc.object();
    if (o.value(QLatin1String("kind")).toString() != kKind)
        return corrupt(QStringLiteral("not an opbench-apiserver state file (kind is not %1)").arg(kKind));
    ServerState s;
    s.token = o.value(QLatin1String("token")).toString();
    s.tls = TlsMaterial::fromJson(o.value(QLatin1String("tls")).toObject());
    s.store = o.value(QLatin1String("store")).toObject();
    if (s.token.isEmpty() || !s.store.contains(QLatin1String("resourceVersion")))
        return corrupt(QStringLiteral("the token or the stored objects are missing"));
    return std::optional<ServerState>(s);
}

Expected<void> StateFile::save(const ServerState &state)
{
    const QJsonObject o{{QStringLiteral("kind"), kKind}, {QStringLiteral("version"), 1},
        {QStringLiteral("token"), state.token}, {QStringLiteral("tls"), state.tls.toJson()},
        {QStringLiteral("store"), state.store}};
    QSaveFile f(m_path);
    if (!f.open(QIODevice::WriteOnly))
        return Status::internalError(QStringLiteral("cannot write state file %1: %2").arg(m_path, f.errorString()));
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    if (!f.commit())
        return Status::internalError(QStringLiteral("cannot write state file %1: %2").arg(m_path, f.errorString()));
    m_dirty = false;
    return {};
}

void StateFile::setSnapshotFunction(std::function<ServerState()> snapshot, int debounceMs)
{
    m_snapshot = std::move(snapshot);
    m_debounce.setInterval(debounceMs);
}

void StateFile::markDirty()
{
    m_dirty = true;
    if (!m_debounce.isActive())
        m_debounce.start();
}

Expected<void> StateFile::flush()
{
    m_debounce.stop();
    if (!m_dirty || !m_snapshot)
        return {};
    return save(m_snapshot());
}

} // namespace opbench::apiserver

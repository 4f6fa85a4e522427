// SPDX-License-Identifier: Apache-2.0
#include "engine/sdk/recordingflags.h"

#include "engine/manager/manager.h"
#include "engine/recording/recording.h"
#include "engine/recording/replayclock.h"
#include "engine/recording/replayer.h"
#include "engine/recording/runrecorder.h"

#include <QCoreApplication>
#include <QFile>
#include <QPointer>

#include <cstdio>

namespace opbench {

Expected<RunRecorder *> startRecording(
    Manager *manager, const OperatorDefinition &def, const QString &path, qint64 maxBytes)
{
    RunRecorderOptions options;
    options.path = path;
    options.maxBytes = maxBytes;
    options.operatorName = def.name;
    options.crds = def.crds;
    auto *recorder = new RunRecorder(std::move(options), manager);
    if (auto ok = recorder->start(manager); !ok) {
        delete recorder;
        return ok.error();
    }
    return recorder;
}

void serveRecording(Manager *manager, RunRecorder *recorder, const QByteArray &token)
{
    if (token.isEmpty())
        return;
    QPointer<RunRecorder> rec(recorder);
    manager->addProtectedMetricsRoute(QString::fromLatin1(kRecordingEndpoint), token, [rec]() -> HttpReply {
        if (!rec)
            return HttpReply{404, QByteArrayLiteral("no recording\n")};
        rec->flush(); // everything recorded so far is in the file
        QFile file(rec->path());
        if (!file.open(QIODevice::ReadOnly))
            return HttpReply{500, ("cannot read the recording: " + file.errorString() + u'\n').toUtf8()};
        return HttpReply{200, file.readAll(), QByteArrayLiteral("application/x-ndjson")};
    });
}

Expected<std::unique_ptr<Manager>> replayManager(OperatorDefinition &def, ReplayClock *clock, int cacheHistory)
{
    ManagerOptions mo;
    mo.restConfig.server = QUrl(QStringLiteral("http://127.0.0.1:1")); // never reached: calls are answered
    mo.clock = clock;
    mo.syncPeriod = std::chrono::milliseconds(0);
    mo.cacheHistory = cacheHistory;
    auto created = Manager::create(mo);
    if (!created)
        return created.error();
    std::unique_ptr<Manager> manager = std::move(*created);
    if (auto ok = registerCrds(manager->cache()->mapper(), def.crds); !ok)
        return ok.error();
    if (auto ctrl = runSetup(def, manager.get()); !ctrl)
        return Status(
            0, QStringLiteral("Invalid"), QStringLiteral("unable to create controller: ") + ctrl.error().message());
    return manager;
}

int replayOperator(const QString &path, OperatorDefinition def)
{
    Recording recording = Recording::read(path);
    if (recording.records().isEmpty()) {
        std::fprintf(stderr, "--replay: %s\n", qPrintable(recording.error()));
        return 2;
    }
    if (!recording.ok())
        std::fprintf(stderr, "--replay: read up to the damage: %s\n", qPrintable(recording.error()));
    ReplayClock clock;
    auto manager = replayManager(def, &clock);
    if (!manager) {
        std::fprintf(stderr, "--replay: %s\n", qPrintable(manager.error().message()));
        return 2;
    }
    Replayer replayer(std::move(recording), manager->get(), &clock);
    const ReplayReport report = replayer.run();
    const QByteArray line = report.toJsonLine();
    std::fprintf(stdout, "%s\n", line.constData());
    std::fflush(stdout);
    return report.diverged > 0 || !report.recordingError.isEmpty() ? 1 : 0;
}

} // namespace opbench

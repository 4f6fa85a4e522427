// SPDX-License-Identifier: Apache-2.0
#include "engine/testing/recordedrun.h"

#include "engine/manager/manager.h"
#include "engine/recording/replayclock.h"
#include "engine/sdk/recordingflags.h"
#include "engine/testing/operatorfixture.h"

namespace opbench::testing {

RecordedRun::RecordedRun(OperatorFixture &env, const QString &path)
{
    RunRecorderOptions options;
    options.path = path;
    options.operatorName = env.definition().name;
    options.crds = env.definition().crds;
    m_recorder = std::make_unique<RunRecorder>(options);
    if (auto started = m_recorder->start(env.manager()); !started)
        m_error = started.error().message();
}

RecordedRun::~RecordedRun() = default;

Recording RecordedRun::finish()
{
    m_recorder->stop();
    return Recording::read(m_recorder->path());
}

ReplayReport replayHeadless(
    const Recording &recording, OperatorDefinition def, const std::function<void(Replayer &)> &before)
{
    ReplayClock clock;
    auto manager = replayManager(def, &clock);
    if (!manager)
        qFatal("replay manager: %s", qPrintable(manager.error().message()));
    Replayer replayer(recording, manager->get(), &clock);
    if (before)
        before(replayer);
    return replayer.run();
}

} // namespace opbench::testing

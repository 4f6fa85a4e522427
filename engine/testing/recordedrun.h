// SPDX-License-Identifier: Apache-2.0
#pragma once
// RecordedRun: a test's recording of an OperatorFixture's run (docs/recording.md) — a RunRecorder
// attached to the fixture's started manager, writing `path`, its header naming the definition's
// operator and CRDs — and replayHeadless(), the headless replay of a recording through an operator
// definition (replayManager() with a ReplayClock, then a Replayer), as `<operator> --replay` does:
//
//     OperatorFixture env(myapp::definition());
//     RecordedRun run(env, dir.filePath(QStringLiteral("run.rec")));
//     QVERIFY2(run.ok(), qPrintable(run.errorString()));
//     … create objects, wait until the controller is idle …
//     const Recording recording = run.finish();
//     QCOMPARE(replayHeadless(recording, myapp::definition()).diverged, 0);
//
// Namespace opbench::testing; never linked by production code.

#include "engine/recording/recording.h"
#include "engine/recording/replayer.h"
#include "engine/recording/runrecorder.h"
#include "engine/sdk/operatordefinition.h"

#include <functional>
#include <memory>

namespace opbench::testing {

class OperatorFixture;

class RecordedRun
{
public:
    /// Starts recording `env`'s manager into `path` (check ok()).
    RecordedRun(OperatorFixture &env, const QString &path);
    ~RecordedRun();
    RecordedRun(const RecordedRun &) = delete;
    RecordedRun &operator=(const RecordedRun &) = delete;
    RecordedRun(RecordedRun &&) = delete;
    RecordedRun &operator=(RecordedRun &&) = delete;

    [[nodiscard]] bool ok() const { return m_error.isEmpty(); }
    /// Why the recorder did not start (names the path).
    [[nodiscard]] const QString &errorString() const { return m_error; }
    [[nodiscard]] RunRecorder &recorder() { return *m_recorder; }
    /// Stops the recorder (everything written) and reads the file back.
    Recording finish();

private:
    std::unique_ptr<RunRecorder> m_recorder;
    QString m_error;
};

/// Replays `recording` through `def`'s reconcilers, headless, and returns the report. `before`
/// (optional) sees the Replayer before it runs (a test's hooks). A replay manager that cannot be
/// built is a failure of the test: qFatal names why.
ReplayReport replayHeadless(
    const Recording &recording, OperatorDefinition def, const std::function<void(Replayer &)> &before = {});

} // namespace opbench::testing

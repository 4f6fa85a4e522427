// SPDX-License-Identifier: Apache-2.0
#pragma once
// --record and --replay for runOperator() (docs/recording.md): startRecording() attaches a
// RunRecorder to a set-up manager; replayOperator() re-executes a recording through the
// definition's own reconcilers, headless (no API server, an injected clock), prints one JSON line
// ({"replayed":N,"diverged":D,…}) and returns the exit code: 0 when every reconcile did what it
// did then, 1 on a divergence or a damaged recording, 2 when the file is no recording.

#include "engine/api/expected.h"
#include "engine/sdk/operatordefinition.h"

#include <QString>

#include <memory>

namespace opbench {

class ReplayClock;
class RunRecorder;

/// A recorder writing to `path` (rotating at `maxBytes`, 0 = never), started on `manager` (after
/// the operator's setup, before the manager starts). Owned by the manager.
Expected<RunRecorder *> startRecording(
    Manager *manager, const OperatorDefinition &def, const QString &path, qint64 maxBytes);

/// The path the recording is served under on the metrics server (`--recording-token`).
inline constexpr char kRecordingEndpoint[] = "/debug/recording";

/// Serves `recorder`'s current file (flushed first) at GET /debug/recording on `manager`'s metrics
/// server, to requests bearing `token` only (401 otherwise): how a workbench fetches the
/// recording of an operator that ran in a cluster. An empty token serves nothing.
void serveRecording(Manager *manager, RunRecorder *recorder, const QByteArray &token);

/// A manager for a replay: the definition's CRDs mapped and its setup run, driven by `clock`,
/// never started; its REST client points at an unreachable address (every reconcile call is
/// answered from the recording). `cacheHistory`: changes kept per kind (ManagerOptions; the
/// workbench's time travel). The error says which step failed.
Expected<std::unique_ptr<Manager>> replayManager(OperatorDefinition &def, ReplayClock *clock, int cacheHistory = 0);

/// `<operator> --replay PATH`: call with a QCoreApplication alive.
int replayOperator(const QString &path, OperatorDefinition def);

} // namespace opbench

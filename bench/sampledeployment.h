// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Deployment the list benchmarks and the cost guard store: about 1.2 KB of JSON, sized like a
// typical application Deployment (replicas 0, so the workload simulator adds no pods).

#include <QByteArray>
#include <QJsonObject>

namespace opbench::bench {

/// Deployment number `i`, named "<prefix><i>" (labels, image tag and owner vary with i).
QJsonObject sampleDeployment(const QByteArray &prefix, int i);

} // namespace opbench::bench

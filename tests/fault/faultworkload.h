// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MyApplication workloads the fault suite runs through the harness (engine/testing/fault).

#include "engine/operator/definition.h"
#include "engine/operator/myapplication.h"
#include "engine/testing/fault/faultharness.h"

#include <QJsonObject>

namespace faultsuite {

inline opbench::Object app(const QString &name, const QString &image, int replicas)
{
    opbench::myapp::MyApplication a;
    a.meta().setName(name);
    a.meta().setNamespace(QStringLiteral("default"));
    a.setImage(image);
    a.setReplicas(replicas);
    return a.toObject();
}

/// Two apps created, one of them scaled and given a new image: the suite's base workload.
inline opbench::testing::Workload twoApps()
{
    using opbench::testing::Step;
    return {Step::create(app(QStringLiteral("web"), QStringLiteral("nginx:1.25"), 2)),
        Step::create(app(QStringLiteral("api"), QStringLiteral("httpd:2.4"), 1), true),
        Step::mergePatch(app(QStringLiteral("web"), {}, 1), R"({"spec":{"replicas":3,"image":"nginx:1.26"}})", true)};
}

inline opbench::testing::HarnessOptions options(const char *test)
{
    opbench::testing::HarnessOptions o;
    o.reproduceCommand
        = QStringLiteral("ctest --test-dir build -R '^%1$' --output-on-failure").arg(QLatin1String(test));
    // The simulated Deployment controller numbers its rollouts; the revision counts rollouts, not state.
    o.mask = [](QJsonObject &obj) {
        QJsonObject meta = obj.value(QLatin1String("metadata")).toObject();
        QJsonObject ann = meta.value(QLatin1String("annotations")).toObject();
        ann.remove(QLatin1String("deployment.kubernetes.io/revision"));
        if (ann.isEmpty())
            meta.remove(QLatin1String("annotations"));
        else
            meta.insert(QStringLiteral("annotations"), ann);
        obj.insert(QStringLiteral("metadata"), meta);
    };
    return o;
}

} // namespace faultsuite

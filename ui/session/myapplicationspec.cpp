// SPDX-License-Identifier: Apache-2.0
#include "ui/session/myapplicationspec.h"

#include "engine/operator/myapplication.h"
#include "engine/operator/samples.h"
#include "engine/operator/setup.h"

namespace opbench::ui {

workbench::OperatorSpec myApplicationSpec()
{
    workbench::OperatorSpec spec;
    spec.leaseName = myapp::leaseName();
    spec.shownKinds = {myapp::kMyApplicationGvk, myapp::kDeploymentGvk,
                       {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("ReplicaSet")},
                       {QString(), QStringLiteral("v1"), QStringLiteral("Pod")}};
    spec.setup = [](Manager *manager) { return myapp::setupWithManager(manager); };
    spec.samples = myapp::sampleApplications();
    return spec;
}

} // namespace opbench::ui

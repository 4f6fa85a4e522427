// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/definition.h"

#include "engine/api/deployment.h"
#include "engine/api/pod.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/samples.h"
#include "engine/operator/setup.h"
#include "engine/operator/webhooks.h"

#include <QFile>

namespace opbench::myapp {

QByteArray crdYaml()
{
    QFile f(QStringLiteral(":/opbench/myapp/crds/myapplications.example.com.yaml"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

OperatorDefinition definition()
{
    OperatorDefinition def;
    def.name = QStringLiteral("myapplication");
    def.leaseName = leaseName();
    def.crds = {crdYaml()};
    // The For and Owns kinds (what runSetup() would derive), then what the workbench shows below
    // a Deployment.
    def.kinds = {gvkOf<MyApplication>(), gvkOf<Deployment>(),
        {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("ReplicaSet")}, gvkOf<Pod>()};
    def.setup = [](Manager *manager) { return setupWithManager(manager); };
    def.webhooks = setupWebhooksWithManager; // defaulting, validating, v1beta1 conversion (webhooks.h)
    def.samples = sampleApplications();
    def.headlessProgram = QStringLiteral("opbench-operator");
    return def;
}

} // namespace opbench::myapp

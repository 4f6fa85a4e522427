// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/definition.h"

#include "engine/operator/myapplication.h"
#include "engine/operator/samples.h"
#include "engine/operator/setup.h"

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
    def.kinds = {kMyApplicationGvk, kDeploymentGvk,
        {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("ReplicaSet")},
        {QString(), QStringLiteral("v1"), QStringLiteral("Pod")}};
    def.setup = [](Manager *manager) { return setupWithManager(manager); };
    def.samples = sampleApplications();
    def.headlessProgram = QStringLiteral("opbench-operator");
    return def;
}

} // namespace opbench::myapp

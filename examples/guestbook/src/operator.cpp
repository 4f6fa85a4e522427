// SPDX-License-Identifier: Apache-2.0
#include "operator.h"

#include "guestbook.h"
#include "guestbook_controller.h"

#include <engine/api/yamlcodec.h>

#include <QFile>

namespace guestbook {

namespace {

QByteArray resource(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

QByteArray crdYaml() { return resource(QStringLiteral(":/guestbook/crd/guestbooks.webapp.example.org.yaml")); }

opbench::OperatorDefinition definition()
{
    opbench::OperatorDefinition def;
    def.name = QStringLiteral("guestbook");
    def.leaseName = QStringLiteral("guestbook-operator.webapp.example.org");
    def.crds = {crdYaml()};
    def.kinds = {kGuestbookGvk, {QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")},
        {QString(), QStringLiteral("v1"), QStringLiteral("Service")}};
    def.setup = [](opbench::Manager *manager) { return setupGuestbookController(manager); };
    if (auto docs = opbench::yamlToJson(resource(QStringLiteral(":/guestbook/samples/guestbook.yaml"))))
        for (const QJsonObject &doc : *docs)
            def.samples.append(opbench::Object::fromJson(doc));
    return def;
}

} // namespace guestbook

// SPDX-License-Identifier: Apache-2.0
// A kind registered from its CRD: every field an operator used to type by hand comes from the
// CRD (kind, plural, list kind, short names, scope, subresources, served versions), and a CRD
// that cannot be used is refused naming the source and the field.
#include "engine/api/crdmapping.h"

#include <QTemporaryDir>
#include <QTest>

using namespace opbench;

namespace {

const char *const Guestbook = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: guestbooks.webapp.example.org
spec:
  group: webapp.example.org
  names:
    kind: Guestbook
    listKind: GuestbookList
    plural: guestbooks
    singular: guestbook
    shortNames: [gb]
  scope: Namespaced
  versions:
  - name: v1beta1
    served: true
    storage: false
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
  - name: v1alpha1
    served: false
    storage: false
)";

} // namespace

class tst_CrdMapping : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldReadEveryMappingFieldFromTheCrd()
    {
        auto mappings = crdMappings(QByteArray(Guestbook), QStringLiteral("guestbook.yaml"));
        QVERIFY2(mappings.ok(), qPrintable(mappings.ok() ? QString() : mappings.error().message()));
        // Served versions only, the storage version first
        QCOMPARE(mappings->size(), 2);
        const ResourceMapping &v1 = mappings->at(0);
        QCOMPARE(v1.gvr.group, QStringLiteral("webapp.example.org"));
        QCOMPARE(v1.gvr.version, QStringLiteral("v1"));
        QCOMPARE(v1.gvr.resource, QStringLiteral("guestbooks"));
        QCOMPARE(v1.kind, QStringLiteral("Guestbook"));
        QCOMPARE(v1.listKind, QStringLiteral("GuestbookList"));
        QCOMPARE(v1.singular, QStringLiteral("guestbook"));
        QCOMPARE(v1.shortNames, QStringList{QStringLiteral("gb")});
        QVERIFY(v1.namespaced);
        QCOMPARE(v1.subresources, (QStringList{QStringLiteral("status"), QStringLiteral("scale")}));
        QCOMPARE(mappings->at(1).gvr.version, QStringLiteral("v1beta1"));
        QVERIFY(mappings->at(1).subresources.isEmpty());
    }

    void shouldMapAClusterScopedCrd()
    {
        QByteArray yaml(Guestbook);
        yaml.replace("scope: Namespaced", "scope: Cluster");
        auto mappings = crdMappings(yaml, QStringLiteral("g.yaml"));
        QVERIFY(mappings.ok());
        QVERIFY(!mappings->first().namespaced);
    }

    void shouldRefuseAnUnusableCrdNamingTheField_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("no served version") << QByteArray("served: true") << QByteArray("served: false")
                                           << QStringLiteral("g.yaml: spec.versions: no served version");
        QTest::newRow("no plural") << QByteArray("plural: guestbooks") << QByteArray("x: y")
                                   << QStringLiteral("g.yaml: spec.names.plural: required");
        QTest::newRow("no kind") << QByteArray("kind: Guestbook\n") << QByteArray("\n")
                                 << QStringLiteral("g.yaml: spec.names.kind: required");
        QTest::newRow("bad scope") << QByteArray("scope: Namespaced") << QByteArray("scope: Namespace")
                                   << QStringLiteral(
                                          "g.yaml: spec.scope: must be Namespaced or Cluster, got \"Namespace\"");
        QTest::newRow("not a CRD") << QByteArray("kind: CustomResourceDefinition") << QByteArray("kind: ConfigMap")
                                   << QStringLiteral(
                                          "g.yaml: kind: expected CustomResourceDefinition, got \"ConfigMap\"");
    }

    void shouldRefuseAnUnusableCrdNamingTheField()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, message);
        QByteArray yaml(Guestbook);
        yaml.replace(from, to);
        auto mappings = crdMappings(yaml, QStringLiteral("g.yaml"));
        QVERIFY(!mappings.ok());
        QCOMPARE(mappings.error().message(), message);
    }

    void shouldNameTheFileAndLineOfBrokenYaml()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.yaml"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: [unclosed\n");
        f.close();
        auto mappings = crdMappingsFromFile(path);
        QVERIFY(!mappings.ok());
        QVERIFY2(
            mappings.error().message().startsWith(path + QStringLiteral(": ")), qPrintable(mappings.error().message()));
        QVERIFY2(mappings.error().message().contains(QStringLiteral("line")), qPrintable(mappings.error().message()));
        auto missing = crdMappingsFromFile(dir.filePath(QStringLiteral("nope.yaml")));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message().contains(QStringLiteral("nope.yaml")));
    }

    void shouldNameTheDocumentOfAMultiDocumentFile()
    {
        QByteArray yaml = QByteArray(Guestbook) + "---\n" + QByteArray(Guestbook).replace("plural: guestbooks", "x: y");
        auto mappings = crdMappings(yaml, QStringLiteral("all.yaml"));
        QVERIFY(!mappings.ok());
        QCOMPARE(mappings.error().message(), QStringLiteral("all.yaml: document 2: spec.names.plural: required"));
    }
};

QTEST_GUILESS_MAIN(tst_CrdMapping)
#include "tst_crdmapping.moc"

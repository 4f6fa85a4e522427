// SPDX-License-Identifier: Apache-2.0
// Built-in validation through HTTP (review #3): 422 with kube-apiserver's field paths and
// messages for invalid Deployments and Services, immutable selectors, cluster IPs and immutable
// ConfigMaps; a PUT whose uid differs is a 409 precondition failure.
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {

const QString kDeploys = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
const QString kServices = QStringLiteral("/api/v1/namespaces/default/services");
const QString kConfigMaps = QStringLiteral("/api/v1/namespaces/default/configmaps");

QByteArray deployment(const char *name, const char *replicas, const char *selectorApp, const char *templateApp,
    const char *container, const char *image)
{
    QByteArray y = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + QByteArray(name)
        + "\nspec:\n  replicas: " + QByteArray(replicas) + "\n  selector:\n    matchLabels: {app: "
        + QByteArray(selectorApp) + "}\n" + "  template:\n    metadata:\n      labels: {app: " + QByteArray(templateApp)
        + "}\n    spec:\n      containers:\n      - ";
    y += *container ? "name: " + QByteArray(container) + "\n        " : QByteArray();
    y += *image ? "image: " + QByteArray(image) + "\n" : "imagePullPolicy: Always\n";
    return y;
}

QString messageOf(const HttpReply &r) { return r.json().value(QLatin1String("message")).toString(); }

} // namespace

class TestApiServerValidation : public QObject, private ApiServerFixture
{
    Q_OBJECT

    HttpReply postYaml(const QString &path, const QByteArray &yaml)
    {
        return m_http.call("POST", path, yaml, "application/yaml");
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldRefuseNegativeReplicas()
    {
        const HttpReply r = postYaml(kDeploys, deployment("neg", "-1", "web", "web", "web", "nginx"));
        QCOMPARE(r.code, 422);
        QCOMPARE(messageOf(r),
            QStringLiteral("Deployment.apps \"neg\" is invalid: spec.replicas: Invalid value: -1: must be greater than "
                           "or equal to 0"));
        const QJsonObject cause = r.json()
                                      .value(QLatin1String("details"))
                                      .toObject()
                                      .value(QLatin1String("causes"))
                                      .toArray()
                                      .first()
                                      .toObject();
        QCOMPARE(cause.value(QLatin1String("field")).toString(), QStringLiteral("spec.replicas"));
        QCOMPARE(cause.value(QLatin1String("reason")).toString(), QStringLiteral("FieldValueInvalid"));
    }

    void shouldRefuseASelectorThatDoesNotMatchTheTemplate()
    {
        const HttpReply r = postYaml(kDeploys, deployment("mismatch", "1", "web", "other", "web", "nginx"));
        QCOMPARE(r.code, 422);
        QCOMPARE(messageOf(r),
            QStringLiteral("Deployment.apps \"mismatch\" is invalid: spec.template.metadata.labels: Invalid value: "
                           "map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`"));
    }

    void shouldRequireContainerNameAndImage()
    {
        const HttpReply r = postYaml(kDeploys, deployment("noimage", "1", "web", "web", "", ""));
        QCOMPARE(r.code, 422);
        QCOMPARE(messageOf(r),
            QStringLiteral(
                "Deployment.apps \"noimage\" is invalid: [spec.template.spec.containers[0].name: Required value, "
                "spec.template.spec.containers[0].image: Required value]"));
        QCOMPARE(m_http.get(kDeploys + QStringLiteral("/noimage")).code, 404);
    }

    void shouldKeepTheSelectorImmutable()
    {
        QCOMPARE(postYaml(kDeploys, deployment("fixed", "1", "web", "web", "web", "nginx")).code, 201);
        const HttpReply r = m_http.call("PATCH", kDeploys + QStringLiteral("/fixed"),
            "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web2\"}},"
            "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web2\"}}}}}",
            "application/merge-patch+json");
        QCOMPARE(r.code, 422);
        QCOMPARE(messageOf(r),
            QStringLiteral("Deployment.apps \"fixed\" is invalid: spec.selector: Invalid value: "
                           "v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web2\"}, "
                           "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"));
        // other spec changes still go through
        QCOMPARE(m_http
                     .call("PATCH", kDeploys + QStringLiteral("/fixed"), "{\"spec\":{\"replicas\":2}}",
                         "application/merge-patch+json")
                     .code,
            200);
    }

    void shouldValidateServicePortsAndKeepTheClusterIp()
    {
        const QByteArray bad
            = "apiVersion: v1\nkind: Service\nmetadata:\n  name: badport\nspec:\n  ports:\n  - port: 70000\n";
        const HttpReply refused = postYaml(kServices, bad);
        QCOMPARE(refused.code, 422);
        QCOMPARE(messageOf(refused),
            QStringLiteral("Service \"badport\" is invalid: spec.ports[0].port: Invalid value: 70000: must be between "
                           "1 and 65535, inclusive"));

        const QByteArray svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: ip\nspec:\n  selector: {app: web}\n  "
                               "ports:\n  - port: 80\n";
        const HttpReply created = postYaml(kServices, svc);
        QCOMPARE(created.code, 201);
        const QString ip
            = created.json().value(QLatin1String("spec")).toObject().value(QLatin1String("clusterIP")).toString();
        QVERIFY(!ip.isEmpty());
        const QString other
            = ip == QLatin1String("10.96.200.200") ? QStringLiteral("10.96.200.201") : QStringLiteral("10.96.200.200");
        const HttpReply changed = m_http.call("PATCH", kServices + QStringLiteral("/ip"),
            "{\"spec\":{\"clusterIP\":\"" + other.toUtf8() + "\",\"clusterIPs\":[\"" + other.toUtf8() + "\"]}}",
            "application/merge-patch+json");
        QCOMPARE(changed.code, 422);
        QVERIFY2(messageOf(changed).contains(
                     QStringLiteral("spec.clusterIP: Invalid value: \"%1\": field is immutable").arg(other)),
            qPrintable(messageOf(changed)));
    }

    void shouldFreezeAnImmutableConfigMap()
    {
        const QByteArray cm
            = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: frozen\nimmutable: true\ndata:\n  a: '1'\n";
        QCOMPARE(postYaml(kConfigMaps, cm).code, 201);
        const HttpReply data = m_http.call("PATCH", kConfigMaps + QStringLiteral("/frozen"), "{\"data\":{\"a\":\"2\"}}",
            "application/merge-patch+json");
        QCOMPARE(data.code, 422);
        QCOMPARE(messageOf(data),
            QStringLiteral(
                "ConfigMap \"frozen\" is invalid: data: Forbidden: field is immutable when `immutable` is set"));
        const HttpReply thaw = m_http.call(
            "PATCH", kConfigMaps + QStringLiteral("/frozen"), "{\"immutable\":false}", "application/merge-patch+json");
        QCOMPARE(thaw.code, 422);
        QCOMPARE(messageOf(thaw),
            QStringLiteral(
                "ConfigMap \"frozen\" is invalid: immutable: Forbidden: field is immutable when `immutable` is set"));
        // labels may still change
        QCOMPARE(m_http
                     .call("PATCH", kConfigMaps + QStringLiteral("/frozen"),
                         "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}", "application/merge-patch+json")
                     .code,
            200);
    }

    void shouldAnswerAUidMismatchWithAPreconditionConflict()
    {
        const QJsonObject cm{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("uid")}}}};
        const HttpReply created = m_http.post(kConfigMaps, cm);
        QCOMPARE(created.code, 201);
        const QString uid
            = created.json().value(QLatin1String("metadata")).toObject().value(QLatin1String("uid")).toString();
        QJsonObject body = created.json();
        QJsonObject meta = body.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("uid"), QStringLiteral("not-the-uid"));
        body.insert(QStringLiteral("metadata"), meta);
        const HttpReply r = m_http.put(kConfigMaps + QStringLiteral("/uid"), body);
        QCOMPARE(r.code, 409);
        QCOMPARE(messageOf(r),
            QStringLiteral("Operation cannot be fulfilled on configmaps \"uid\": Precondition failed: "
                           "UID in precondition: not-the-uid, UID in object meta: %1")
                .arg(uid));
    }
};

QTEST_GUILESS_MAIN(TestApiServerValidation)
#include "tst_apiserver_validation.moc"

// SPDX-License-Identifier: Apache-2.0
#include "bench/sampledeployment.h"

#include <QJsonDocument>

namespace opbench::bench {

QJsonObject sampleDeployment(const QByteArray &prefix, int i)
{
    static const QByteArray shape = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"NAME",
      "labels":{"app":"NAME","tier":"backend","owner":"team-T"},
      "annotations":{"opbench.dev/purpose":"list benchmark object, sized like a typical application Deployment"}},
      "spec":{"replicas":0,"revisionHistoryLimit":5,"selector":{"matchLabels":{"app":"NAME"}},
      "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},
      "template":{"metadata":{"labels":{"app":"NAME","tier":"backend"}},"spec":{"serviceAccountName":"default",
      "containers":[{"name":"main","image":"registry.example.com/apps/NAME:2.T.1","imagePullPolicy":"IfNotPresent",
      "args":["--port=8080","--metrics-port=9090","--log-format=json"],
      "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},{"name":"metrics","containerPort":9090,"protocol":"TCP"}],
      "env":[{"name":"APP_NAME","value":"NAME"},{"name":"LOG_LEVEL","value":"info"}],
      "resources":{"requests":{"cpu":"50m","memory":"64Mi"},"limits":{"memory":"128Mi"}},
      "readinessProbe":{"httpGet":{"path":"/ready","port":8080},"periodSeconds":10}}]}}}})";
    QByteArray text = shape;
    text.replace("NAME", prefix + QByteArray::number(i))
        .replace("team-T", "team-" + QByteArray::number(i % 13))
        .replace("2.T.1", "2." + QByteArray::number(i % 7) + ".1");
    return QJsonDocument::fromJson(text).object();
}

} // namespace opbench::bench

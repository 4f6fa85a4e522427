// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/samples.h"

#include "engine/operator/myapplication.h"

namespace opbench::myapp {

QList<Object> sampleApplications()
{
    struct Sample
    {
        const char *name;
        const char *image;
        int replicas;
    };
    static const Sample samples[] = {
        {"frontend", "nginx:1.25", 3},
        {"backend", "registry.example.com/shop/backend:2.4", 2},
        {"worker", "registry.example.com/shop/worker:1.7", 1},
        {"cache", "redis:7.2", 1},
        {"broken", "registry.example.com/does-not-exist/app:1.0", 1},
    };
    QList<Object> out;
    for (const Sample &s : samples) {
        MyApplication app(QStringLiteral("default"), QString::fromLatin1(s.name));
        app.setImage(QString::fromLatin1(s.image));
        app.setReplicas(s.replicas);
        out << app.toObject();
    }
    return out;
}

} // namespace opbench::myapp

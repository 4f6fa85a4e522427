// SPDX-License-Identifier: Apache-2.0
#pragma once
// For the UI suites that run the sample MyApplication operator: myappfixture.cpp makes it the
// hosted operator when the test's QApplication is created (the workbench library has no
// operator of its own), and myApp() builds the object the old create form made.

#include "engine/api/object.h"

#include <QJsonObject>

namespace opbench::testing {

/// MyApplication `name` in "default" running `replicas` copies of `image`.
inline Object myApp(const QString &name, const QString &image, int replicas)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("image"), image}, {QStringLiteral("replicas"), replicas}}}});
}

} // namespace opbench::testing

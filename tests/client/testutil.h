// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helpers shared by the client tests.

#include <QTest>

/// Verifies that an Expected holds a value, printing its Status otherwise (QVERIFY2 evaluates
/// its message eagerly, so the error must only be read when there is one).
#define QVERIFY_OK(e) QVERIFY2((e).ok(), (e).ok() ? "" : qPrintable((e).error().toString()))

// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fixture the API server suites share: one embedded server (plain HTTP, TestApiServer's
// defaults) for the whole suite and a TestHttp on it. A suite mixes it in:
//
//   class TestApiServerX : public QObject, private ApiServerFixture
//   {
//       Q_OBJECT
//   private Q_SLOTS:
//       void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }
//       void shouldX() { QCOMPARE(m_http.get(path).code, 200); }
//   };

#include "tests/support/testhttp.h"

namespace opbench::testing {

struct ApiServerFixture
{
    TestApiServer m_api;
    TestHttp m_http{m_api}; // requests go to m_api once it has started
};

} // namespace opbench::testing

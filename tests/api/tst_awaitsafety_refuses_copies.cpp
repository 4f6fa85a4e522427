// SPDX-License-Identifier: Apache-2.0
// Must NOT compile (ctest tst_awaitsafety_refuses_copies builds it and expects the message):
// a callback given to an awaited call that captures by value is what g++ 12 destroys twice
// inside co_await, so createOrUpdate's static_assert refuses it, naming the trap.
#include "engine/controller/client.h"
#include "tests/controller/testkinds.h"

using namespace opbench;

QCoro::Task<void> capturesByValue(Client *client, QString value)
{
    auto r = co_await client->createOrUpdate(ReconcileContext(), test::TestConfigMap(value, value),
        [value](test::TestConfigMap &c) { c.setValue(value, value); });
    (void)r;
}

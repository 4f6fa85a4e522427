// SPDX-License-Identifier: Apache-2.0
#pragma once
// The opbench version this library was built as ("0.3.0"): user agents, --version, and the
// version check of things built against another SDK.

#include <QString>

namespace opbench {

QString version();

} // namespace opbench

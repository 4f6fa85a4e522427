// SPDX-License-Identifier: Apache-2.0
#include "engine/api/version.h"

namespace opbench {

QString version()
{
    return QStringLiteral(OPBENCH_VERSION); // defined for this file only (engine/api/CMakeLists.txt)
}

} // namespace opbench

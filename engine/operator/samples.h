// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sample MyApplications (same as resources/samples/*.yaml), for the --embedded demo.

#include "engine/api/object.h"

namespace opbench::myapp {

/// Five apps in namespace "default"; "broken" uses an image that never becomes ready.
QList<Object> sampleApplications();

} // namespace opbench::myapp

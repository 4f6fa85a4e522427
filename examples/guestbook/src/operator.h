// SPDX-License-Identifier: Apache-2.0
// The Guestbook operator as one opbench::OperatorDefinition.
#pragma once

#include <opbench/opbench.h>

namespace guestbook {

opbench::OperatorDefinition definition();

} // namespace guestbook

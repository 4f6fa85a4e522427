// SPDX-License-Identifier: Apache-2.0
#include "operator.h"

#include "guestbook_controller.h"

namespace guestbook {

opbench::OperatorDefinition definition()
{
    opbench::OperatorDefinition def("guestbook");
    opbench::addKind<Guestbook>(def); // its CRD, generated from the types
    def.setup = setupGuestbookController;
    def.samples = opbench::loadObjects(":/guestbook/samples").value();
    return def;
}

} // namespace guestbook

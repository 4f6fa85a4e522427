// SPDX-License-Identifier: Apache-2.0
// guestbook-workbench: the opbench workbench on the Guestbook operator.
#include "operator.h"

#include <opbench/workbench.h>

#include <QCoreApplication>

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("guestbook-workbench"));
    return opbench::runWorkbench(argc, argv, guestbook::definition());
}

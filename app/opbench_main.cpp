// SPDX-License-Identifier: Apache-2.0
// opbench: the desktop workbench on the sample MyApplication operator. With no flags it starts an
// embedded cluster with sample MyApplications; --kubeconfig/--context use a real cluster;
// --screenshot/--exit-after render the window to a PNG and quit (docs, tests). The whole main is
// the SDK's runWorkbench(); a user's operator gets the same window the same way.
#include "engine/operator/definition.h"
#include "ui/workbenchmain.h"

#include <QCoreApplication>

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("opbench"));
    return opbench::runWorkbench(argc, argv, opbench::myapp::definition());
}

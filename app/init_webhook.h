// SPDX-License-Identifier: Apache-2.0
#pragma once
// `opbench-init create webhook`: kubebuilder's `create webhook` on a project opbench-init
// scaffolded. It reads the project (the kind's header, src/operator.cpp, CMakeLists.txt), plans
// every file it writes and every edit, and touches nothing unless the whole plan holds: a missing
// project or kind, a webhook or spoke that already exists, or a file edited past recognition is
// refused with a message naming what and where.

#include "init_scaffold.h"

#include <QList>
#include <QString>

namespace opbench::init {

/// What `create webhook` was asked (its flags, checked) and the project folder.
struct WebhookRequest
{
    QString dir;
    QString group; ///< --group as given (the first label) or the whole API group
    QString version, kind, spoke;
    bool defaulting = false, validation = false, conversion = false;
};

/// One file of the plan: its path under the project and its whole new content.
struct PlannedFile
{
    QString path;
    QString content;
    bool edit = false; ///< an existing file rewritten (else a new one)
};

/// Reads the project and plans the change with the templates under `templates` (a folder path
/// ending in '/'; opbench-init's are ":/opbench/scaffold/webhook/"): the files, or an empty list
/// and `error`. `project` gets what was read (kind, group, version, plural, namespace, flags).
QList<PlannedFile> planWebhook(
    const WebhookRequest &request, Project *project, const QString &templates, QString *error);

/// Writes a plan: false with `error` naming the file when one cannot be written.
bool writePlan(const QString &dir, const QList<PlannedFile> &plan, QString *error);

/// `opbench-init create webhook …` (the whole command line): its exit code.
int createMain(const QStringList &arguments);

} // namespace opbench::init

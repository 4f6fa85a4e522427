// SPDX-License-Identifier: Apache-2.0
#pragma once
// The ⓘ explanations for learners: two or three plain sentences per panel, naming the controller
// concept and the detail people usually get wrong.

#include <QString>

namespace opbench::ui {

enum class Panel { Cache, Reconciles, Queue, Object, Children, Leadership, Faults, Pipeline, CurrentReconcile };

QString learnerText(Panel panel);

} // namespace opbench::ui

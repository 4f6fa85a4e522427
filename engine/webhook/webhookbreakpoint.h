// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookBreakpoint: a breakpoint on the operator's own webhook handlers (the workbench's
// WebhookGate holds a matching request before its handler runs), typed as
//
//     webhook /validate-example-com-v1alpha1-myapplication     a path, exactly
//     webhook validate op=CREATE                               a word of the path, one operation
//     webhook mutate name=default/web                          one object ("NAME" or "NS/NAME")
//     webhook convert kind=MyApplication                       conversions of one kind
//     webhook any                                              every request ("webhook" alone too)
//
// The words after the target are optional and combine (all must hold). Operations are
// CREATE, UPDATE, DELETE, CONNECT (admission) and CONVERT (conversion). The controller's
// breakpoints (engine/controller/breakpoint.h) never start with "webhook".

#include "engine/api/expected.h"

#include <QString>

namespace opbench {

/// What the gate knows of a request when it decides whether to hold it.
struct WebhookRequestInfo
{
    WebhookRequestInfo() = default;
    QString path;          ///< the served path ("/validate-…", "/convert")
    QString operation;     ///< CREATE, UPDATE, DELETE, CONNECT; CONVERT
    QString objectKind;    ///< "MyApplication"
    QString namespaceName; ///< "" for cluster-scoped objects
    QString name;          ///< the object's name ("" when the review names none)
    QString uid;           ///< the review's request uid
};

struct WebhookBreakpoint
{
    WebhookBreakpoint() = default;

    /// Whether `text` is a webhook breakpoint's text (it starts with the word "webhook").
    [[nodiscard]] static bool isWebhookSpec(const QString &text);
    /// Reads the forms of the header comment. Errors: not one of them (the message shows them).
    static Expected<WebhookBreakpoint> parse(const QString &text);

    int id = 0; ///< set by the gate
    bool enabled = true;
    QString target;    ///< "" = any path; starting with '/': the path; else a word of the path
    QString operation; ///< "" = any; upper case
    QString object;    ///< "" = any; "NAME" or "NS/NAME"
    QString kind;      ///< "" = any

    /// The text parse() reads back: "webhook /validate-… op=CREATE name=default/web".
    [[nodiscard]] QString describe() const;
    /// Does this (enabled) breakpoint hold `request`?
    [[nodiscard]] bool holds(const WebhookRequestInfo &request) const;
};

} // namespace opbench

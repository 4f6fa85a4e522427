// SPDX-License-Identifier: Apache-2.0
#pragma once
// Breakpoint: one breakpoint of the controller's debugger, as a debugger has them — on a key, on
// a kind, on any error, before a kind of client call ("before any write to a Deployment"), or on
// a condition of the reconciled object ("status.phase == Failed"); each can be disabled without
// being removed. Controller::addBreakpoint() gives it an id; Controller evaluates it where it
// takes an item from the queue (key, kind, condition), before each client call (call) and after
// a failed reconcile (error).

#include "engine/api/expected.h"
#include "engine/controller/reconciletrace.h"
#include "engine/queue/queuekey.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace opbench {

struct Breakpoint
{
    enum class Type {
        Key,       ///< before `key` is reconciled
        Kind,      ///< before any reconcile of a controller whose For kind is `kind`
        Error,     ///< after any reconcile that ends in an error
        Call,      ///< before a client call of `verb` to `kind` (a reconcile of `key`, if set)
        Condition, ///< before reconciling an object (of `key`, if set) where `path op value` holds
    };

    Breakpoint() = default;
    Breakpoint(Type t, QString keyOrKind)
        : type(t)
    {
        (t == Type::Kind ? kind : key) = std::move(keyOrKind);
    }
    /// Before a call: `verb` is one of Client's verbs (get, list, create, update, updateStatus,
    /// patch, patchStatus, delete), "write" for any write or "" for any call; `kind` "" = any.
    static Breakpoint beforeCall(QString verb, QString kind, QString key = {});
    /// On a condition "path op value", op `==` or `!=`, e.g. `status.phase == Failed` or
    /// `status.conditions[0].status != True`. Errors: the text is not of that form.
    static Expected<Breakpoint> condition(const QString &text, QString key = {});

    /// The text a person types, the inverse of describe(): "key default/web", "kind MyApplication",
    /// "error", "before write Deployment", "before any call of default/web",
    /// "status.phase == Failed". Errors: none of these forms (the message lists them).
    static Expected<Breakpoint> parse(const QString &text);

    int id = 0; ///< set by Controller::addBreakpoint
    Type type = Type::Key;
    bool enabled = true;
    QString key;  ///< "ns/name"
    QString kind; ///< Kind: the reconciled kind; Call: the target's kind ("" = any)
    QString verb; ///< Call only
    QString path; ///< Condition only: dotted path, `[i]` for list items
    QString op;   ///< "==" or "!="
    QString value;

    /// For a person: "key default/web", "before write Deployment", "status.phase == Failed", …
    /// (parse() reads it back).
    [[nodiscard]] QString describe() const;
    [[nodiscard]] static QString typeName(Type t);
    /// A reconcile of `key` by a controller of For kind `forKind`, about to start, with the
    /// cached object `object` (empty when not cached): does this breakpoint stop it?
    [[nodiscard]] bool stopsBefore(const QueueKey &key, const QString &forKind, const QJsonObject &object) const;
    /// A reconcile of `key` about to send `call`: does this breakpoint stop it?
    [[nodiscard]] bool stopsCall(const QueueKey &key, const PendingCall &call) const;
    /// The value at `path` in `object` as text (strings bare, numbers and bools as JSON, absent
    /// as ""), the left-hand side of a condition.
    [[nodiscard]] static QString valueAt(const QJsonObject &object, const QString &path);
};

} // namespace opbench

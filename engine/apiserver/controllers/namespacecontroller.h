// SPDX-License-Identifier: Apache-2.0
#pragma once
// NamespaceController: namespace deletion. A namespace being deleted is Terminating; its
// content is deleted, and once nothing is left its "kubernetes" spec finalizer is cleared and
// the namespace goes (objects kept by finalizers are waited for).

#include <QObject>
#include <QSet>
#include <QTimer>

namespace opbench::apiserver {

class Store;
struct StoreEvent;

class NamespaceController : public QObject
{
    Q_OBJECT
public:
    explicit NamespaceController(Store *store, QObject *parent = nullptr);

private:
    void onCommitted(const StoreEvent &event);
    void sweep();
    /// True when `ns` is empty (and was finalized).
    bool sweepOne(const QString &ns);
    Store *m_store;
    QSet<QString> m_terminating;
    QTimer m_timer;
};

} // namespace opbench::apiserver

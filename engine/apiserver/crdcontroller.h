// SPDX-License-Identifier: Apache-2.0
#pragma once
// CrdController: serves CustomResourceDefinitions. A created or changed CRD registers its
// resource (every served version) and gets its status as the real server writes it —
// conditions NamesAccepted and Established (True, or NamesAccepted False with the reason),
// acceptedNames and storedVersions. A deleted CRD stops being served and its objects go.

#include <QObject>

namespace opbench::apiserver {

class Store;
struct StoreEvent;

class CrdController : public QObject
{
    Q_OBJECT
public:
    /// Watches `store` (which must outlive the controller) and registers the CRDs it holds.
    explicit CrdController(Store *store, QObject *parent = nullptr);

    /// Registers every stored CRD again (after a restore) and refreshes their status.
    void resyncAll();

private:
    void onCommitted(const StoreEvent &event);
    void reconcile(const QString &name);
    Store *m_store;
};

} // namespace opbench::apiserver

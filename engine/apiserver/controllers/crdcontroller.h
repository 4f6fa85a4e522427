// SPDX-License-Identifier: Apache-2.0
#pragma once
// CrdController: serves CustomResourceDefinitions. A created or changed CRD registers its
// resource (every served version) and gets its status as the real server writes it —
// conditions NamesAccepted and Established (True, or NamesAccepted False with the reason),
// acceptedNames and storedVersions.
//
// Deleting a CRD works as in kube-apiserver: the DELETE adds the finalizer
// customresourcecleanup.apiextensions.k8s.io (ResourceHandler, crdCleanupFinalizer()), the
// CRD gets the condition Terminating=True (InstanceDeletionInProgress), its objects are deleted
// through the normal path (their own finalizers hold them; creates are refused meanwhile), and
// once none is left the finalizer goes and the CRD is removed and no longer served.

#include <QObject>
#include <QString>

namespace opbench::apiserver {

class Store;
struct StoreEvent;

/// "customresourcecleanup.apiextensions.k8s.io".
QString crdCleanupFinalizer();

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
    /// A terminating CRD: deletes its objects, and removes the cleanup finalizer once none is left.
    void cleanup(const QString &name);
    Store *m_store;
};

} // namespace opbench::apiserver

// SPDX-License-Identifier: Apache-2.0
#pragma once
// CrdFiles: a stream of generated CRDs (what an operator binary prints with `--print-crd`) split
// into one file per CRD, as opbench-gen writes them into config/crd/:
//
//     auto files = crdFiles(stream);              // [{"guestbooks.webapp.example.org.yaml", yaml}]
//     for (const CrdFile &f : *files) … write f.content to dir/f.fileName …
//
// Each file holds one CRD as crdYaml() emits it (a "generated, edit the types" header, then the
// document), so regenerating from the same types gives the same bytes and a CI check can diff.

#include "engine/api/expected.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace opbench {

struct CrdFile
{
    CrdFile(QString name, QByteArray bytes)
        : fileName(std::move(name))
        , content(std::move(bytes))
    { }
    QString fileName; ///< "<plural>.<group>.yaml" (the CRD's metadata.name)
    QByteArray content;
};

/// One CrdFile per document of `yamlStream`. Errors (400) name the document: one that is not a
/// CustomResourceDefinition, has no metadata.name, or a name that is not a plain file name.
Expected<QList<CrdFile>> crdFiles(const QByteArray &yamlStream);

} // namespace opbench

// SPDX-License-Identifier: Apache-2.0
#pragma once
// Protobuf schemas (ProtobufMessage, ProtobufField): the field tables of the Kubernetes
// messages the embedded server can decode (field numbers as in k8s.io/api and
// k8s.io/apimachinery generated.proto), enough for the objects kubectl's generators send
// (`kubectl create configmap|secret|namespace|deployment`, `kubectl run`): ObjectMeta,
// ConfigMap, Secret, Namespace, Pod, Deployment with DeploymentSpec/Strategy/Status,
// LabelSelector, PodTemplateSpec, PodSpec, Container (ports, env, resources, volume mounts,
// command/args) and their small helpers.
//
// Field numbers missing from a table are skipped by the decoder; see protobufdecode.h for how
// each ProtobufFieldType maps to JSON.

#include <QByteArray>
#include <QList>
#include <QString>

namespace opbench::apiserver {

struct ProtobufMessage;

enum class ProtobufFieldType {
    String,      ///< JSON string
    Bytes,       ///< JSON string, base64
    Int,         ///< JSON number (int32/int64 varint)
    Bool,        ///< JSON bool
    Message,     ///< JSON object (see `message`)
    StringMap,   ///< map<string,string> → JSON object
    BytesMap,    ///< map<string,bytes> → JSON object of base64 strings
    QuantityMap, ///< map<string,resource.Quantity> → JSON object of strings
    Time,        ///< meta.v1.Time {seconds, nanos} → "2024-05-01T10:00:00Z"; zero → absent
    IntOrString, ///< intstr.IntOrString {type, intVal, strVal} → number or string
};

struct ProtobufField
{
    quint32 number;
    const char *json; ///< JSON field name
    ProtobufFieldType type;
    const ProtobufMessage &(*message)() = nullptr; ///< for Message fields
    bool repeated = false;                         ///< JSON array
    /// Go pointer field (`*int32`, `*bool`, ...): the wire carries it only when set, so a zero
    /// value is kept. Other zero scalars are dropped (Go's `omitempty`).
    bool pointer = false;
};

struct ProtobufMessage
{
    const char *name; ///< "ObjectMeta", "PodSpec", ... (for error messages)
    QList<ProtobufField> fields;
    const ProtobufField *field(quint32 number) const;
};

/// The top-level message for apiVersion/kind ("v1"/"ConfigMap", "apps/v1"/"Deployment"), or
/// nullptr when this server cannot decode that kind.
const ProtobufMessage *protobufMessageFor(const QString &apiVersion, const QString &kind);
/// "v1 ConfigMap, v1 Namespace, ..." for error messages.
QString protobufSupportedKinds();

} // namespace opbench::apiserver

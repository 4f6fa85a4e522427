// SPDX-License-Identifier: Apache-2.0
// The field table of the built-in kinds (see openapischema.h for the type language). Field
// lists follow k8s.io/api; descriptions are short summaries written for opbench.
#include "engine/apiserver/schema/openapischema.h"

#include "engine/apiserver/apply/strategicmerge.h"

#include <QJsonArray>
#include <QList>

#include <functional>

namespace opbench::apiserver {

namespace {

struct Field
{
    const char *name; // "!name": required
    const char *type;
    const char *description;
};

struct Definition
{
    const char *name; // with a prefix: core.Pod
    const char *description;
    QList<Field> fields;
    const char *group = nullptr; // set for kinds: group/version/kind
    const char *version = nullptr;
    const char *kind = nullptr;
};

const char *const kMetaDescription
    = "Standard object's metadata: name, namespace, labels, annotations, owner references, "
      "finalizers and the fields the server sets (uid, resourceVersion, creationTimestamp).";
const char *const kApiVersionDescription
    = "APIVersion defines the versioned schema of this representation of an object.";
const char *const kKindDescription = "Kind is a string value representing the REST resource this object represents.";

/// apiVersion, kind and metadata, then `fields`.
QList<Field> kindFields(QList<Field> fields)
{
    fields.prepend({"metadata", "@meta.ObjectMeta", kMetaDescription});
    fields.prepend({"kind", "string", kKindDescription});
    fields.prepend({"apiVersion", "string", kApiVersionDescription});
    return fields;
}

// The field table: one line a field, kept as written (clang-format would fold it).
// clang-format off
const QList<Definition> &definitions()
{
    static const QList<Definition> defs{
        // ---- meta ---------------------------------------------------------------------------
        {"meta.ObjectMeta", "ObjectMeta is metadata that all persisted resources must have.",
         {{"name", "string", "Name must be unique within a namespace. Required when creating resources."},
          {"generateName", "string", "An optional prefix the server uses to generate a unique name when name is not set."},
          {"namespace", "string", "Namespace defines the space within which each name must be unique."},
          {"uid", "string", "UID is the unique in time and space value for this object, set by the server."},
          {"resourceVersion", "string", "An opaque value that represents the internal version of this object; used for optimistic concurrency and watches."},
          {"generation", "int64", "A sequence number representing a specific generation of the desired state, set by the server."},
          {"creationTimestamp", "time", "The server time when this object was created."},
          {"deletionTimestamp", "time", "The time after which this resource will be deleted; set by the server when a graceful deletion is requested."},
          {"deletionGracePeriodSeconds", "int64", "Number of seconds allowed for this object to gracefully terminate."},
          {"labels", "map", "Map of string keys and values that can be used to organize and categorize objects; matched by selectors."},
          {"annotations", "map", "Unstructured key value map set by external tools to store and retrieve arbitrary metadata."},
          {"ownerReferences", "[]@meta.OwnerReference", "Objects this object depends on; when all owners are deleted the garbage collector removes this object."},
          {"finalizers", "[]string", "Must be empty before the object is deleted from the registry."},
          {"managedFields", "[]@meta.ManagedFieldsEntry", "Which manager owns which fields (server-side apply)."}}},
        {"meta.OwnerReference", "OwnerReference contains enough information to let you identify an owning object.",
         {{"!apiVersion", "string", "API version of the referent."},
          {"!kind", "string", "Kind of the referent."},
          {"!name", "string", "Name of the referent."},
          {"!uid", "string", "UID of the referent."},
          {"controller", "boolean", "If true, this reference points to the managing controller."},
          {"blockOwnerDeletion", "boolean", "If true, the owner cannot be deleted from the key-value store until this reference is removed (foreground deletion)."}}},
        {"meta.ManagedFieldsEntry", "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
         {{"manager", "string", "Identifier of the workflow managing these fields."},
          {"operation", "string", "The type of operation which lead to this entry: Apply or Update."},
          {"apiVersion", "string", "The version of this resource that this field set applies to."},
          {"time", "time", "When this entry was added or changed."},
          {"fieldsType", "string", "The format of fieldsV1: always \"FieldsV1\"."},
          {"fieldsV1", "object", "The set of fields managed, in the FieldsV1 format."},
          {"subresource", "string", "The subresource used to update the object, if any."}}},
        {"meta.LabelSelector", "A label selector: the result of matchLabels and matchExpressions are ANDed; an empty selector matches everything.",
         {{"matchLabels", "map", "A map of {key,value} pairs, each equivalent to an element of matchExpressions with operator In."},
          {"matchExpressions", "[]@meta.LabelSelectorRequirement", "A list of label selector requirements, ANDed."}}},
        {"meta.LabelSelectorRequirement", "A selector that contains values, a key, and an operator that relates the key and values.",
         {{"!key", "string", "The label key that the selector applies to."},
          {"!operator", "string", "A key's relationship to a set of values: In, NotIn, Exists and DoesNotExist."},
          {"values", "[]string", "An array of string values; must be empty for Exists and DoesNotExist."}}},
        {"meta.Condition", "Condition contains details for one aspect of the current state of this API Resource.",
         {{"!type", "string", "Type of condition in CamelCase."},
          {"!status", "enum:True|False|Unknown", "Status of the condition."},
          {"observedGeneration", "int64", "The .metadata.generation the condition was set based upon."},
          {"!lastTransitionTime", "time", "The last time the condition transitioned from one status to another."},
          {"!reason", "string", "A programmatic identifier for the last transition, in CamelCase."},
          {"!message", "string", "A human readable message about the transition."}}},
        {"resource.Quantity", "A fixed-point number with a suffix: \"100m\", \"1Gi\", \"2\".", {}},
        {"intstr.IntOrString", "An int32 or a string (for example a port number or a percentage such as \"25%\").", {}},

        // ---- core/v1 ------------------------------------------------------------------------
        {"core.Pod", "Pod is a collection of containers that can run on a host, created by clients and scheduled onto hosts.",
         kindFields({{"spec", "@core.PodSpec", "Specification of the desired behavior of the pod."},
                     {"status", "@core.PodStatus", "Most recently observed status of the pod, written by the system."}}),
         "", "v1", "Pod"},
        {"core.PodTemplateSpec", "Describes the data a pod should have when created from a template.",
         {{"metadata", "@meta.ObjectMeta", kMetaDescription},
          {"spec", "@core.PodSpec", "Specification of the desired behavior of the pod."}}},
        {"core.PodSpec", "PodSpec is a description of a pod.",
         {{"!containers", "[]@core.Container", "List of containers belonging to the pod. There must be at least one."},
          {"initContainers", "[]@core.Container", "Containers run in order before the app containers start."},
          {"volumes", "[]@core.Volume", "List of volumes that can be mounted by containers belonging to the pod."},
          {"restartPolicy", "enum:Always|OnFailure|Never", "Restart policy for all containers within the pod. Default Always."},
          {"terminationGracePeriodSeconds", "int64", "Seconds the pod needs to terminate gracefully. Default 30."},
          {"activeDeadlineSeconds", "int64", "Seconds the pod may be active before the system actively tries to mark it failed."},
          {"dnsPolicy", "enum:ClusterFirstWithHostNet|ClusterFirst|Default|None", "How DNS is set up for the pod. Default ClusterFirst."},
          {"nodeSelector", "map", "Labels a node must have for the pod to fit on it."},
          {"serviceAccountName", "string", "Name of the ServiceAccount to use to run this pod."},
          {"serviceAccount", "string", "Deprecated alias of serviceAccountName."},
          {"automountServiceAccountToken", "boolean", "Whether a service account token should be mounted automatically."},
          {"nodeName", "string", "The node this pod is bound to (set by the scheduler)."},
          {"hostNetwork", "boolean", "Use the host's network namespace."},
          {"hostPID", "boolean", "Use the host's pid namespace."},
          {"hostIPC", "boolean", "Use the host's ipc namespace."},
          {"securityContext", "object", "Pod-level security attributes and common container settings."},
          {"imagePullSecrets", "[]@core.LocalObjectReference", "Secrets in the same namespace used to pull the images."},
          {"hostname", "string", "The hostname of the pod; defaults to the pod name."},
          {"subdomain", "string", "The pod's subdomain (FQDN <hostname>.<subdomain>.<namespace>.svc)."},
          {"affinity", "object", "The pod's scheduling constraints."},
          {"schedulerName", "string", "The scheduler that dispatches the pod. Default default-scheduler."},
          {"tolerations", "[]@core.Toleration", "The pod's tolerations."},
          {"priorityClassName", "string", "The pod's priority class."},
          {"priority", "integer", "The priority value, set from priorityClassName by admission."},
          {"readinessGates", "[]object", "Extra conditions evaluated for pod readiness."},
          {"enableServiceLinks", "boolean", "Whether information about services is injected into the pod's environment. Default true."}}},
        {"core.Container", "A single application container that you want to run within a pod.",
         {{"!name", "string", "Name of the container, unique within the pod (DNS_LABEL)."},
          {"image", "string", "Container image name."},
          {"command", "[]string", "Entrypoint array, not executed within a shell."},
          {"args", "[]string", "Arguments to the entrypoint."},
          {"workingDir", "string", "Container's working directory."},
          {"ports", "[]@core.ContainerPort", "Ports to expose from the container (informational)."},
          {"env", "[]@core.EnvVar", "Environment variables to set in the container."},
          {"envFrom", "[]object", "Sources (ConfigMaps, Secrets) to populate environment variables from."},
          {"resources", "@core.ResourceRequirements", "Compute resources required by this container."},
          {"volumeMounts", "[]@core.VolumeMount", "Pod volumes to mount into the container's filesystem."},
          {"livenessProbe", "@core.Probe", "Periodic probe of container liveness; the container is restarted if it fails."},
          {"readinessProbe", "@core.Probe", "Periodic probe of container service readiness."},
          {"startupProbe", "@core.Probe", "Probe that must succeed before the other probes run."},
          {"lifecycle", "object", "Actions the system takes in response to container lifecycle events."},
          {"terminationMessagePath", "string", "Path of the file the container's termination message is read from."},
          {"terminationMessagePolicy", "enum:FallbackToLogsOnError|File", "How the termination message is populated."},
          {"imagePullPolicy", "enum:Always|IfNotPresent|Never", "Image pull policy. Default Always for :latest, IfNotPresent otherwise."},
          {"securityContext", "object", "Security options the container runs with."},
          {"stdin", "boolean", "Allocate a buffer for stdin."},
          {"stdinOnce", "boolean", "Close stdin after the first attach."},
          {"tty", "boolean", "Allocate a TTY."}}},
        {"core.ContainerPort", "A network port in a single container.",
         {{"!containerPort", "integer", "Port number to expose on the pod's IP address (0 < x < 65536)."},
          {"name", "string", "An IANA_SVC_NAME that service ports can refer to."},
          {"protocol", "enum:SCTP|TCP|UDP", "Protocol for port. Default TCP."},
          {"hostPort", "integer", "Port number to expose on the host."},
          {"hostIP", "string", "Host IP to bind the external port to."}}},
        {"core.EnvVar", "An environment variable present in a container.",
         {{"!name", "string", "Name of the environment variable."},
          {"value", "string", "Value, with $(VAR_NAME) references expanded."},
          {"valueFrom", "object", "Source for the value (field, resource, ConfigMap or Secret key); cannot be used with value."}}},
        {"core.ResourceRequirements", "Compute resource requirements.",
         {{"limits", "map:quantity", "Maximum amount of compute resources allowed."},
          {"requests", "map:quantity", "Minimum amount of compute resources required; defaults to limits."}}},
        {"core.VolumeMount", "A mounting of a volume within a container.",
         {{"!name", "string", "Must match the name of a volume."},
          {"!mountPath", "string", "Path within the container at which the volume should be mounted."},
          {"readOnly", "boolean", "Mounted read-only if true."},
          {"subPath", "string", "Path within the volume from which the container's volume should be mounted."}}},
        {"core.Volume", "A named volume in a pod that may be accessed by any container in the pod.",
         {{"!name", "string", "Volume's name (DNS_LABEL), unique within the pod."},
          {"configMap", "object", "A ConfigMap that should populate this volume."},
          {"secret", "object", "A Secret that should populate this volume."},
          {"emptyDir", "object", "A temporary directory that shares a pod's lifetime."},
          {"persistentVolumeClaim", "object", "A reference to a PersistentVolumeClaim in the same namespace."},
          {"hostPath", "object", "A directory on the host."},
          {"projected", "object", "Items for all-in-one resources: secrets, configmaps and the downward API."}}},
        {"core.Probe", "A health check performed against a container.",
         {{"exec", "object", "The command to run."},
          {"httpGet", "object", "The HTTP request to perform."},
          {"tcpSocket", "object", "The TCP port to connect to."},
          {"initialDelaySeconds", "integer", "Seconds after the container has started before probes are initiated."},
          {"timeoutSeconds", "integer", "Seconds after which the probe times out. Default 1."},
          {"periodSeconds", "integer", "How often (in seconds) to perform the probe. Default 10."},
          {"successThreshold", "integer", "Consecutive successes for the probe to be considered successful. Default 1."},
          {"failureThreshold", "integer", "Consecutive failures for the probe to be considered failed. Default 3."}}},
        {"core.Toleration", "Tolerates any taint that matches the triple <key,value,effect> using the operator.",
         {{"key", "string", "The taint key that the toleration applies to; empty matches all keys."},
          {"operator", "enum:Equal|Exists", "Key's relationship to the value. Default Equal."},
          {"value", "string", "The taint value the toleration matches to."},
          {"effect", "enum:NoExecute|NoSchedule|PreferNoSchedule", "The taint effect to match; empty matches all effects."},
          {"tolerationSeconds", "int64", "How long the pod stays bound after a NoExecute taint appears."}}},
        {"core.LocalObjectReference", "A reference to an object in the same namespace.", {{"name", "string", "Name of the referent."}}},
        {"core.PodStatus", "Information about the status of a pod; may trail the actual state of a system.",
         {{"phase", "enum:Failed|Pending|Running|Succeeded|Unknown", "A simple, high-level summary of where the pod is in its lifecycle."},
          {"conditions", "[]@core.PodCondition", "Current service state of the pod."},
          {"message", "string", "A human readable message indicating details about why the pod is in this condition."},
          {"reason", "string", "A brief CamelCase message indicating why the pod is in this state."},
          {"hostIP", "string", "IP address of the host the pod is assigned to."},
          {"podIP", "string", "IP address allocated to the pod."},
          {"podIPs", "[]object", "IP addresses allocated to the pod."},
          {"startTime", "time", "When the pod was acknowledged by the kubelet."},
          {"containerStatuses", "[]@core.ContainerStatus", "One entry per container in the manifest."},
          {"initContainerStatuses", "[]@core.ContainerStatus", "One entry per init container in the manifest."},
          {"qosClass", "enum:BestEffort|Burstable|Guaranteed", "The Quality of Service class assigned to the pod."}}},
        {"core.PodCondition", "Details for the current condition of this pod.",
         {{"!type", "string", "Type of the condition (PodScheduled, Initialized, ContainersReady, Ready)."},
          {"!status", "enum:True|False|Unknown", "Status of the condition."},
          {"lastProbeTime", "time", "Last time the condition was probed."},
          {"lastTransitionTime", "time", "Last time the condition transitioned from one status to another."},
          {"reason", "string", "Unique, one-word, CamelCase reason for the condition's last transition."},
          {"message", "string", "Human-readable message indicating details about the last transition."}}},
        {"core.ContainerStatus", "Details for the current status of a container.",
         {{"!name", "string", "The container's name (its entry in the pod spec)."},
          {"state", "object", "Current state: waiting, running or terminated."},
          {"lastTerminationState", "object", "The container's last termination condition."},
          {"!ready", "boolean", "Whether the container is passing its readiness probe."},
          {"!restartCount", "integer", "How many times the container has been restarted."},
          {"!image", "string", "The image the container is running."},
          {"!imageID", "string", "The image ID of the container's image."},
          {"containerID", "string", "The container's ID in the format '<type>://<container_id>'."},
          {"started", "boolean", "Whether the container has finished its postStart hook and passed its startup probe."}}},
        {"core.Service", "Service is a named abstraction of software service consisting of a local port that the proxy listens on, and the selector that determines which pods answer.",
         kindFields({{"spec", "@core.ServiceSpec", "Spec defines the behavior of a service."},
                     {"status", "@core.ServiceStatus", "Most recently observed status of the service."}}),
         "", "v1", "Service"},
        {"core.ServiceSpec", "The attributes a user creates on a service.",
         {{"ports", "[]@core.ServicePort", "The list of ports that are exposed by this service."},
          {"selector", "map", "Route service traffic to pods with label keys and values matching this selector."},
          {"clusterIP", "string", "The IP address of the service, usually assigned randomly; \"None\" for a headless service. Immutable."},
          {"clusterIPs", "[]string", "IP addresses assigned to this service (clusterIP first)."},
          {"type", "enum:ClusterIP|ExternalName|LoadBalancer|NodePort", "How the Service is exposed. Default ClusterIP."},
          {"externalIPs", "[]string", "IP addresses for which nodes also accept traffic for this service."},
          {"sessionAffinity", "enum:ClientIP|None", "Session affinity. Default None."},
          {"loadBalancerIP", "string", "Deprecated: the IP requested from the load balancer."},
          {"externalName", "string", "The external reference returned as a CNAME record (type ExternalName)."},
          {"externalTrafficPolicy", "enum:Cluster|Local", "How nodes distribute external traffic."},
          {"internalTrafficPolicy", "enum:Cluster|Local", "How nodes distribute cluster-internal traffic."},
          {"ipFamilies", "[]string", "IP families (IPv4, IPv6) assigned to this service."},
          {"ipFamilyPolicy", "enum:PreferDualStack|RequireDualStack|SingleStack", "Dual-stack-ness requested or required by this service."},
          {"publishNotReadyAddresses", "boolean", "Publish addresses of pods that are not ready."}}},
        {"core.ServicePort", "Information on a service's port.",
         {{"name", "string", "The name of this port within the service; required when there is more than one port."},
          {"protocol", "enum:SCTP|TCP|UDP", "The IP protocol for this port. Default TCP."},
          {"appProtocol", "string", "The application protocol for this port."},
          {"!port", "integer", "The port that will be exposed by this service."},
          {"targetPort", "intstr", "Number or name of the port to access on the pods targeted by the service; defaults to port."},
          {"nodePort", "integer", "The port on each node on which this service is exposed (NodePort, LoadBalancer)."}}},
        {"core.ServiceStatus", "The current status of a service.",
         {{"loadBalancer", "object", "The current status of the load-balancer, if one is present."},
          {"conditions", "[]@meta.Condition", "The current service state."}}},
        {"core.ConfigMap", "ConfigMap holds configuration data for pods to consume.",
         kindFields({{"data", "map", "Configuration data (UTF-8 values); keys must consist of alphanumeric characters, '-', '_' or '.'."},
                     {"binaryData", "map", "Binary configuration data, base64-encoded."},
                     {"immutable", "boolean", "If true, only metadata can be modified."}}),
         "", "v1", "ConfigMap"},
        {"core.Secret", "Secret holds secret data of a certain type; the total bytes of the values must be less than 1 MiB.",
         kindFields({{"data", "map", "Secret data, each value base64-encoded."},
                     {"stringData", "map", "Write-only convenience field: non-binary values merged into data on write."},
                     {"type", "string", "Used to facilitate programmatic handling of secret data. Default Opaque."},
                     {"immutable", "boolean", "If true, only metadata can be modified."}}),
         "", "v1", "Secret"},
        {"core.Namespace", "Namespace provides a scope for Names.",
         kindFields({{"spec", "@core.NamespaceSpec", "Spec defines the behavior of the Namespace."},
                     {"status", "@core.NamespaceStatus", "Status describes the current status of a Namespace."}}),
         "", "v1", "Namespace"},
        {"core.NamespaceSpec", "The attributes on a Namespace.",
         {{"finalizers", "[]string", "Values that must be empty to permanently remove the object from storage."}}},
        {"core.NamespaceStatus", "Information about the observed status of a namespace.",
         {{"phase", "enum:Active|Terminating", "The current lifecycle phase of the namespace."},
          {"conditions", "[]object", "The latest available observations of a namespace's current state."}}},
        {"core.Event", "Event is a report of an event somewhere in the cluster.",
         kindFields({{"!involvedObject", "@core.ObjectReference", "The object that this event is about."},
                     {"reason", "string", "A short, machine understandable string that gives the reason for the transition."},
                     {"message", "string", "A human-readable description of the status of this operation."},
                     {"source", "@core.EventSource", "The component reporting this event."},
                     {"firstTimestamp", "time", "The time at which the event was first recorded."},
                     {"lastTimestamp", "time", "The time at which the most recent occurrence of this event was recorded."},
                     {"count", "integer", "The number of times this event has occurred."},
                     {"type", "enum:Normal|Warning", "Type of this event."},
                     {"eventTime", "time", "Time when this Event was first observed (MicroTime)."},
                     {"series", "object", "Data about the Event series this event represents."},
                     {"action", "string", "What action was taken/failed regarding the involved object."},
                     {"related", "@core.ObjectReference", "Optional secondary object for more complex actions."},
                     {"reportingComponent", "string", "Name of the controller that emitted this Event."},
                     {"reportingInstance", "string", "ID of the controller instance."}}),
         "", "v1", "Event"},
        {"core.ObjectReference", "ObjectReference contains enough information to let you inspect or modify the referred object.",
         {{"kind", "string", "Kind of the referent."},
          {"namespace", "string", "Namespace of the referent."},
          {"name", "string", "Name of the referent."},
          {"uid", "string", "UID of the referent."},
          {"apiVersion", "string", "API version of the referent."},
          {"resourceVersion", "string", "Specific resourceVersion to which this reference is made, if any."},
          {"fieldPath", "string", "A piece of an object instead of an entire object, e.g. spec.containers{name}."}}},
        {"core.EventSource", "Contains information for an event.",
         {{"component", "string", "Component from which the event is generated."},
          {"host", "string", "Node name on which the event is generated."}}},
        {"core.ServiceAccount", "ServiceAccount binds together a name, a principal that can be authenticated and authorized, and a set of secrets.",
         kindFields({{"secrets", "[]@core.ObjectReference", "Secrets in the same namespace that pods running as this account may use."},
                     {"imagePullSecrets", "[]@core.LocalObjectReference", "Secrets used to pull images for pods that reference this account."},
                     {"automountServiceAccountToken", "boolean", "Whether pods running as this account get an API token mounted."}}),
         "", "v1", "ServiceAccount"},
        {"core.Node", "Node is a worker node in Kubernetes.",
         kindFields({{"spec", "object", "Spec defines the behavior of a node (podCIDR, taints, unschedulable, ...)."},
                     {"status", "object", "Most recently observed status of the node (conditions, addresses, capacity, nodeInfo)."}}),
         "", "v1", "Node"},

        // ---- apps/v1 ------------------------------------------------------------------------
        {"apps.Deployment", "Deployment enables declarative updates for Pods and ReplicaSets.",
         kindFields({{"spec", "@apps.DeploymentSpec", "Specification of the desired behavior of the Deployment."},
                     {"status", "@apps.DeploymentStatus", "Most recently observed status of the Deployment."}}),
         "apps", "v1", "Deployment"},
        {"apps.DeploymentSpec", "The specification of the desired behavior of the Deployment.",
         {{"replicas", "integer", "Number of desired pods. Defaults to 1."},
          {"!selector", "@meta.LabelSelector", "Label selector for pods; must match the pod template's labels. Immutable."},
          {"!template", "@core.PodTemplateSpec", "Template describes the pods that will be created."},
          {"strategy", "@apps.DeploymentStrategy", "The deployment strategy to use to replace existing pods with new ones."},
          {"minReadySeconds", "integer", "Minimum seconds a new pod must be ready without crashing to be considered available. Default 0."},
          {"revisionHistoryLimit", "integer", "The number of old ReplicaSets to retain to allow rollback. Default 10."},
          {"paused", "boolean", "Indicates that the deployment is paused."},
          {"progressDeadlineSeconds", "integer", "Maximum seconds for a deployment to make progress before it is considered failed. Default 600."}}},
        {"apps.DeploymentStrategy", "How to replace existing pods with new ones.",
         {{"type", "enum:Recreate|RollingUpdate", "Type of deployment. Default RollingUpdate."},
          {"rollingUpdate", "@apps.RollingUpdateDeployment", "Rolling update config parameters (type RollingUpdate)."}}},
        {"apps.RollingUpdateDeployment", "Controls the desired behavior of a rolling update.",
         {{"maxUnavailable", "intstr", "Maximum number (or percentage) of pods that can be unavailable during the update. Default 25%."},
          {"maxSurge", "intstr", "Maximum number (or percentage) of pods that can be scheduled above the desired number. Default 25%."}}},
        {"apps.DeploymentStatus", "The most recently observed status of the Deployment.",
         {{"observedGeneration", "int64", "The generation observed by the deployment controller."},
          {"replicas", "integer", "Total number of non-terminated pods targeted by this deployment."},
          {"updatedReplicas", "integer", "Non-terminated pods that have the desired template spec."},
          {"readyReplicas", "integer", "Pods targeted by this Deployment with a Ready condition."},
          {"availableReplicas", "integer", "Pods ready for at least minReadySeconds."},
          {"unavailableReplicas", "integer", "Pods still required for the deployment to have 100% available capacity."},
          {"conditions", "[]@apps.DeploymentCondition", "The latest available observations of the deployment's current state."},
          {"collisionCount", "integer", "Count of hash collisions for the Deployment."}}},
        {"apps.DeploymentCondition", "The state of a deployment at a certain point.",
         {{"!type", "string", "Type of deployment condition (Available, Progressing, ReplicaFailure)."},
          {"!status", "enum:True|False|Unknown", "Status of the condition."},
          {"lastUpdateTime", "time", "The last time this condition was updated."},
          {"lastTransitionTime", "time", "Last time the condition transitioned from one status to another."},
          {"reason", "string", "The reason for the condition's last transition."},
          {"message", "string", "A human readable message indicating details about the transition."}}},
        {"apps.ReplicaSet", "ReplicaSet ensures that a specified number of pod replicas are running at any given time.",
         kindFields({{"spec", "@apps.ReplicaSetSpec", "Spec defines the specification of the desired behavior of the ReplicaSet."},
                     {"status", "@apps.ReplicaSetStatus", "Status is the most recently observed status of the ReplicaSet."}}),
         "apps", "v1", "ReplicaSet"},
        {"apps.ReplicaSetSpec", "The specification of a ReplicaSet.",
         {{"replicas", "integer", "Number of desired pods. Defaults to 1."},
          {"minReadySeconds", "integer", "Minimum seconds a new pod must be ready to be considered available. Default 0."},
          {"!selector", "@meta.LabelSelector", "A label query over pods that should match the replica count."},
          {"template", "@core.PodTemplateSpec", "The object that describes the pod created if insufficient replicas are detected."}}},
        {"apps.ReplicaSetStatus", "The current status of a ReplicaSet.",
         {{"!replicas", "integer", "The most recently observed number of replicas."},
          {"fullyLabeledReplicas", "integer", "Pods that have labels matching the labels of the pod template."},
          {"readyReplicas", "integer", "Pods targeted by this ReplicaSet with a Ready condition."},
          {"availableReplicas", "integer", "Available pods (ready for at least minReadySeconds)."},
          {"observedGeneration", "int64", "The most recent generation observed."},
          {"conditions", "[]object", "The latest available observations of the replica set's current state."}}},

        // ---- coordination.k8s.io/v1 ---------------------------------------------------------
        {"coord.Lease", "Lease defines a lease concept (leader election, node heartbeats).",
         kindFields({{"spec", "@coord.LeaseSpec", "Specification of the Lease."}}), "coordination.k8s.io", "v1", "Lease"},
        {"coord.LeaseSpec", "The specification of a Lease.",
         {{"holderIdentity", "string", "The identity of the holder of a current lease."},
          {"leaseDurationSeconds", "integer", "Seconds candidates wait to force acquire the lease, measured against the last observed renewTime."},
          {"acquireTime", "time", "When the current lease was acquired (MicroTime)."},
          {"renewTime", "time", "When the current holder last updated the lease (MicroTime)."},
          {"leaseTransitions", "integer", "The number of transitions of the lease between holders."}}},

        // ---- events.k8s.io/v1 ---------------------------------------------------------------
        {"events.Event", "Event is a report of an event somewhere in the cluster (events.k8s.io/v1 shape of core/v1 Event).",
         kindFields({{"!eventTime", "time", "The time when this Event was first observed (MicroTime)."},
                     {"regarding", "@core.ObjectReference", "The object this Event is about."},
                     {"related", "@core.ObjectReference", "An optional secondary object for more complex actions."},
                     {"note", "string", "A human-readable description of the status of this operation."},
                     {"type", "enum:Normal|Warning", "The type of this event."},
                     {"reason", "string", "Why the action was taken."},
                     {"action", "string", "What action was taken/failed regarding the regarding object."},
                     {"reportingController", "string", "The controller that emitted this Event."},
                     {"reportingInstance", "string", "The ID of the controller instance."},
                     {"series", "object", "Data about the Event series this event represents."},
                     {"deprecatedSource", "@core.EventSource", "The core/v1 source field."},
                     {"deprecatedFirstTimestamp", "time", "The core/v1 firstTimestamp field."},
                     {"deprecatedLastTimestamp", "time", "The core/v1 lastTimestamp field."},
                     {"deprecatedCount", "integer", "The core/v1 count field."}}),
         "events.k8s.io", "v1", "Event"},

        // ---- apiextensions.k8s.io/v1, rbac.authorization.k8s.io/v1 ---------------------------
        {"apiext.CustomResourceDefinition", "CustomResourceDefinition represents a resource that should be exposed on the API server.",
         kindFields({{"!spec", "object", "The group, names, scope and versions (with schemas) of the custom resource."},
                     {"status", "object", "Conditions (Established, NamesAccepted), accepted names and stored versions."}}),
         "apiextensions.k8s.io", "v1", "CustomResourceDefinition"},
        {"rbac.PolicyRule", "PolicyRule holds information that describes a policy rule.",
         {{"!verbs", "[]string", "Verbs that apply to all resources in this rule; '*' means all."},
          {"apiGroups", "[]string", "API groups of the resources; '' is the core group, '*' all."},
          {"resources", "[]string", "Resources this rule applies to; '*' means all."},
          {"resourceNames", "[]string", "An optional allow list of names."},
          {"nonResourceURLs", "[]string", "Partial URLs a user should have access to (ClusterRoles only)."}}},
        {"rbac.RoleRef", "Contains information that points to the role being used.",
         {{"!apiGroup", "string", "The group for the resource being referenced."},
          {"!kind", "string", "The type of resource being referenced (Role or ClusterRole)."},
          {"!name", "string", "The name of resource being referenced."}}},
        {"rbac.Subject", "A reference to a user, group or service account.",
         {{"!kind", "string", "User, Group or ServiceAccount."},
          {"apiGroup", "string", "The API group of the referenced subject."},
          {"!name", "string", "Name of the object being referenced."},
          {"namespace", "string", "Namespace of the referenced object (ServiceAccount)."}}},
        {"rbac.Role", "Role is a namespaced, logical grouping of PolicyRules referenced as a unit by a RoleBinding.",
         kindFields({{"rules", "[]@rbac.PolicyRule", "All the PolicyRules for this Role."}}), "rbac.authorization.k8s.io", "v1", "Role"},
        {"rbac.ClusterRole", "ClusterRole is a cluster level, logical grouping of PolicyRules.",
         kindFields({{"rules", "[]@rbac.PolicyRule", "All the PolicyRules for this ClusterRole."},
                     {"aggregationRule", "object", "How to build the rules of this ClusterRole from others."}}),
         "rbac.authorization.k8s.io", "v1", "ClusterRole"},
        {"rbac.RoleBinding", "RoleBinding grants the permissions of a Role or ClusterRole within a namespace.",
         kindFields({{"subjects", "[]@rbac.Subject", "The objects the role applies to."},
                     {"!roleRef", "@rbac.RoleRef", "The Role or ClusterRole in the current namespace being referenced. Immutable."}}),
         "rbac.authorization.k8s.io", "v1", "RoleBinding"},
        {"rbac.ClusterRoleBinding", "ClusterRoleBinding grants the permissions of a ClusterRole cluster-wide.",
         kindFields({{"subjects", "[]@rbac.Subject", "The objects the role applies to."},
                     {"!roleRef", "@rbac.RoleRef", "The ClusterRole being referenced. Immutable."}}),
         "rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"},
    };
    return defs;
}
// clang-format on

QString expandName(const QString &shortName)
{
    static const QList<QPair<const char *, const char *>> prefixes{
        {"meta.", "io.k8s.apimachinery.pkg.apis.meta.v1."},
        {"resource.", "io.k8s.apimachinery.pkg.api.resource."},
        {"intstr.", "io.k8s.apimachinery.pkg.util.intstr."},
        {"core.", "io.k8s.api.core.v1."},
        {"apps.", "io.k8s.api.apps.v1."},
        {"coord.", "io.k8s.api.coordination.v1."},
        {"events.", "io.k8s.api.events.v1."},
        {"rbac.", "io.k8s.api.rbac.v1."},
        {"apiext.", "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1."},
    };
    for (const auto &p : prefixes)
        if (shortName.startsWith(QLatin1String(p.first)))
            return QLatin1String(p.second) + shortName.mid(qsizetype(qstrlen(p.first)));
    return shortName;
}

QJsonObject ref(const QString &shortName)
{
    return QJsonObject{{QStringLiteral("$ref"), QStringLiteral("#/components/schemas/") + expandName(shortName)}};
}

/// The schema of one type expression (see openapischema.h).
QJsonObject typeSchema(const QString &type)
{
    if (type.startsWith(QLatin1String("[]")))
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("array")}, {QStringLiteral("items"), typeSchema(type.mid(2))}};
    if (type.startsWith(u'@')) // refs are wrapped in allOf, as kube-openapi's v3 documents do
        return QJsonObject{{QStringLiteral("allOf"), QJsonArray{ref(type.mid(1))}}};
    if (type.startsWith(QLatin1String("enum:"))) {
        QJsonArray values;
        for (const QString &v : type.mid(5).split(u'|'))
            values.append(v);
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("enum"), values}};
    }
    if (type == QLatin1String("integer"))
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("format"), QStringLiteral("int32")}};
    if (type == QLatin1String("int64"))
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("format"), QStringLiteral("int64")}};
    if (type == QLatin1String("time"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("format"), QStringLiteral("date-time")}};
    if (type == QLatin1String("quantity"))
        return QJsonObject{{QStringLiteral("allOf"), QJsonArray{ref(QStringLiteral("resource.Quantity"))}}};
    if (type == QLatin1String("intstr"))
        return QJsonObject{{QStringLiteral("allOf"), QJsonArray{ref(QStringLiteral("intstr.IntOrString"))}}};
    if (type == QLatin1String("map"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("additionalProperties"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}};
    if (type == QLatin1String("map:quantity"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("additionalProperties"), typeSchema(QStringLiteral("quantity"))}};
    if (type == QLatin1String("object"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("x-kubernetes-preserve-unknown-fields"), true}};
    return QJsonObject{{QStringLiteral("type"), type}}; // string, number, boolean
}

QString fieldNameOf(const Field &f)
{
    const QString name = QLatin1String(f.name);
    return name.startsWith(u'!') ? name.mid(1) : name;
}

/// "<definition>|<field>" → merge key ("" for a primitive list merged as a set) of every list
/// field the strategic merge table (strategicmerge.h) merges, found by walking each kind's
/// fields with their paths: the same table drives the server's strategic merge patch and the
/// x-kubernetes-patch-* extensions kubectl computes its patches from.
QHash<QString, QString> patchMergeKeys()
{
    QHash<QString, const Definition *> byName;
    for (const Definition &d : definitions())
        byName.insert(QLatin1String(d.name), &d);
    QHash<QString, QString> out;
    std::function<void(const Definition &, const QString &, int)> walk
        = [&](const Definition &d, const QString &path, int depth) {
              if (depth > 16)
                  return;
              for (const Field &f : d.fields) {
                  const QString name = fieldNameOf(f);
                  const QString fieldPath = path.isEmpty() ? name : path + u'.' + name;
                  QString type = QLatin1String(f.type);
                  if (type.startsWith(QLatin1String("[]"))) {
                      type = type.mid(2);
                      const QString key = QLatin1String(d.name) + u'|' + name;
                      if (const auto mergeKey = strategicMergeKey(fieldPath); mergeKey && !out.contains(key))
                          out.insert(key, *mergeKey);
                  }
                  if (type.startsWith(u'@'))
                      if (const Definition *sub = byName.value(type.mid(1)))
                          walk(*sub, fieldPath, depth + 1);
              }
          };
    for (const Definition &d : definitions())
        if (d.kind)
            walk(d, QString(), 0);
    return out;
}

QJsonObject definitionSchema(const Definition &d, const QHash<QString, QString> &mergeKeys)
{
    QJsonObject schema{{QStringLiteral("description"), QLatin1String(d.description)}};
    const QString name = QLatin1String(d.name);
    // v3 shapes of the two scalar unions: no "type", so kubectl names them (<Quantity>, <IntOrString>)
    if (name == QLatin1String("resource.Quantity")) {
        schema.insert(QStringLiteral("oneOf"),
            QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}},
                QJsonObject{{QStringLiteral("type"), QStringLiteral("number")}}});
        return schema;
    }
    if (name == QLatin1String("intstr.IntOrString")) {
        schema.insert(QStringLiteral("format"), QStringLiteral("int-or-string"));
        schema.insert(QStringLiteral("x-kubernetes-int-or-string"), true);
        schema.insert(QStringLiteral("anyOf"),
            QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}},
                QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}});
        return schema;
    }
    schema.insert(QStringLiteral("type"), QStringLiteral("object"));
    QJsonObject properties;
    QJsonArray required;
    for (const Field &f : d.fields) {
        QString fieldName = QLatin1String(f.name);
        if (fieldName.startsWith(u'!')) {
            fieldName.remove(0, 1);
            required.append(fieldName);
        }
        QJsonObject p = typeSchema(QLatin1String(f.type));
        p.insert(QStringLiteral("description"), QLatin1String(f.description));
        if (const auto key = mergeKeys.constFind(QLatin1String(d.name) + u'|' + fieldName); key != mergeKeys.cend()) {
            p.insert(QStringLiteral("x-kubernetes-patch-strategy"), QStringLiteral("merge"));
            if (!key->isEmpty())
                p.insert(QStringLiteral("x-kubernetes-patch-merge-key"), *key);
        }
        properties.insert(fieldName, p);
    }
    if (!properties.isEmpty())
        schema.insert(QStringLiteral("properties"), properties);
    if (!required.isEmpty())
        schema.insert(QStringLiteral("required"), required);
    if (d.kind) {
        schema.insert(QStringLiteral("x-kubernetes-group-version-kind"),
            QJsonArray{QJsonObject{{QStringLiteral("group"), QLatin1String(d.group)},
                {QStringLiteral("version"), QLatin1String(d.version)},
                {QStringLiteral("kind"), QLatin1String(d.kind)}}});
    }
    return schema;
}

} // namespace

const QHash<QString, QJsonObject> &builtinSchemas()
{
    static const QHash<QString, QJsonObject> schemas = [] {
        QHash<QString, QJsonObject> out;
        const QHash<QString, QString> mergeKeys = patchMergeKeys();
        for (const Definition &d : definitions())
            out.insert(expandName(QLatin1String(d.name)), definitionSchema(d, mergeKeys));
        return out;
    }();
    return schemas;
}

QString builtinDefinitionFor(const GroupVersionKind &gvk)
{
    for (const Definition &d : definitions())
        if (d.kind && gvk.kind == QLatin1String(d.kind) && gvk.group == QLatin1String(d.group)
            && gvk.version == QLatin1String(d.version))
            return expandName(QLatin1String(d.name));
    return QString();
}

QString objectMetaDefinition() { return expandName(QStringLiteral("meta.ObjectMeta")); }

} // namespace opbench::apiserver

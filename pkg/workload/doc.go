// Package workload reads the objects that run pods (Deployments,
// StatefulSets, DaemonSets, ReplicaSets, Jobs, CronJobs and Pods, as
// kubectl exports or Helm renders them) and decides on which nodes their
// pods could be placed, with Kubernetes' own scheduling helpers
// (k8s.io/component-helpers/scheduling/corev1 and its nodeaffinity
// package): nodeSelector, required node affinity (matchExpressions and
// matchFields), tolerations against NoSchedule and NoExecute taints, and
// extended resources requested by containers against node capacity.
//
// Preferred affinity, pod (anti-)affinity, topology spread, CPU and memory
// requests and what already runs on a node are out of its scope: a node
// is eligible when nothing in the pod template rules it out.
package workload

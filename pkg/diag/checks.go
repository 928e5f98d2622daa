package diag

// Check is one check nfd-fn runs: a stable ID (NFDnnn), a short name, what
// it finds, an example that triggers it and how to fix it. docs/checks.md
// is generated from the catalogue (and a test keeps it in step).
type Check struct {
	ID, Name, Summary, Example, Fix string
}

// Catalogue lists every check in ID order. IDs are stable: a new check
// takes the next number and a removed check's number is never reused, so
// suppressions written in repositories keep their meaning.
var Catalogue = []Check{
	{"NFD001", "yaml", "YAML that does not parse",
		"`labels: {a: \"true\"` (an unclosed flow mapping)", "Fix the syntax at the line shown; the rest of the file is not checked until then."},
	{"NFD002", "schema", "A field of the wrong type for the NFD API (the API server rejects the object), an unquoted yes, no, on, off, y or n among them (kubectl and Helm read YAML 1.1 and send a boolean); as a key (`labels: {on: \"x\"}`), such a word is sent as the key \"true\" or \"false\", which the API server stores and nfd-fn then uses",
		"`value: 8086` where a list of strings is expected; `labels: {example.com/gpu: yes}`; `matchExpressions: {yes: {op: Exists}}`", "Write the value in the type the API takes: `value: [\"8086\"]`, `\"yes\"`; quote the key: `\"yes\": {op: Exists}`."},
	{"NFD003", "unknown-field", "An unknown or misspelt field: kubectl apply (fieldValidation=Strict) refuses the object, an error; under fieldValidation=Warn (client-go, Helm, operators, GitOps controllers) the API server prunes it, a warning. validate assumes Strict, render, plan and explain Warn, unless strictFieldValidation says otherwise",
		"`values:` in a match expression, `lables:` in a rule", "Use the field the did-you-mean names."},
	{"NFD004", "invalid-op", "An unknown match operator: the rule fails wherever the expression is evaluated",
		"`op: in`", "Use one of NFD's operators (In, NotIn, InRegexp, Exists, DoesNotExist, Gt, Ge, Lt, Le, GtLt, GeLe, IsTrue, IsFalse); the proposed value is the closest."},
	{"NFD005", "invalid-value", "Match expression values nfd-master cannot evaluate (wrong count, not a number, a bad regexp or version)",
		"`{op: Gt, value: [\"one\"]}`", "Give the operator the values it takes; an error when the fleet hits it, a warning when only some fleet could."},
	{"NFD006", "template", "A labelsTemplate or varsTemplate that does not parse, cannot run, uses a feature its matcher does not provide, or reads what the template data never has (a key a pci.device element lacks; a field of a feature, which templates see as a list of elements)",
		"`{{ range .cpu.sst }}` in a rule that matches only `cpu.cpuid`; `{{ .kernel.version.major }}`", "Fix the template (range over a feature; read an attribute element's .Name and .Value), or add a matcher term for the feature it reads (templates see only matched features)."},
	{"NFD007", "feature-name", "A malformed feature name in a matcher term",
		"`feature: pcidevice`", "Write `<domain>.<feature>`, e.g. `pci.device`."},
	{"NFD008", "rule-name", "A rule without a name",
		"a rule with `labels:` but no `name:`", "Name every rule: nfd-master's logs and nfd-fn's results refer to rules by name."},
	{"NFD009", "rule", "A rule that cannot be compiled for another reason",
		"a rule with neither matchFeatures, matchAny nor outputs", "Read the message; it names the part of the rule."},
	{"NFD010", "unknown-feature", "A feature nfd-worker never publishes (nor does the input's NodeFeatures)",
		"`feature: cpu.cpuids`", "Use a feature of the latest nfd-worker's catalogue; the did-you-mean names the closest."},
	{"NFD011", "unknown-element", "An element the feature never has",
		"`kernel.version` element `majr`", "Use the element the did-you-mean proposes."},
	{"NFD012", "output-label", "A label nfd-master would reject (error) or drop by policy (warning)",
		"`labels: {kubernetes.io/role: gpu}`", "Use the feature.node.kubernetes.io namespace or one allowed by extraLabelNs; fix invalid values."},
	{"NFD013", "output-annotation", "An annotation nfd-master would reject or drop",
		"`annotations: {kubernetes.io/owner: me}`", "Use the feature.node.kubernetes.io namespace; keep values under 1 KiB."},
	{"NFD014", "output-extended-resource", "An extended resource nfd-master would reject or drop",
		"`extendedResources: {gpus: lots}`", "Give a quantity, or an @feature.element reference; use an allowed namespace."},
	{"NFD015", "taint", "A taint nfd-master would reject or drop",
		"`{key: dedicated, effect: NoSchedule}` (unprefixed)", "Prefix the key (example.com/dedicated) and use NoSchedule, PreferNoSchedule or NoExecute."},
	{"NFD016", "reference", "An @domain.feature.element value that cannot resolve",
		"`extendedResources: {vfs: \"@pci.device.sriov_totalvfs\"}` (an instance feature)", "Reference an attribute feature's element."},
	{"NFD017", "backref", "A rule.matched reference that no earlier rule produces",
		"`feature: rule.matched` with element `gpu` and no rule labelling `gpu` before it", "Produce the label or var in a rule that runs earlier (objects run in name order)."},
	{"NFD018", "duplicate-object", "Two objects of one kind, namespace and name: the cluster keeps only the last applied",
		"`my-sample-rule-object` in two files", "Rename one, or delete the copy; nfd-fn uses the last."},
	{"NFD019", "duplicate-rule-name", "Two rules with the same name",
		"two rules named `gpu`", "Give every rule its own name."},
	{"NFD020", "matches-no-node", "A rule that matches none of the nodes in the input",
		"a rule on a PCI vendor no node has", "Check the rule against `nfd-fn explain --node`; the fleet may simply lack that hardware."},
	{"NFD021", "label-conflict", "Two rules that set one label to different values on the same node",
		"`nic-vendor: intel` and `nic-vendor: mellanox` both matching a node", "Make the rules exclusive, or merge them; the later one silently wins in nfd-master."},
	{"NFD022", "taints-every-node", "A rule that taints every node of the fleet",
		"a taint on a rule that matches `kernel.version` on all nodes", "Narrow the rule: a fleet-wide taint keeps every workload without a toleration off every node."},
	{"NFD023", "other-kind", "A document that is not an NFD kind, or not an object at all (a list or a scalar without apiVersion and kind), skipped",
		"a Deployment among the rule files; an Ansible playbook that names NodeFeatureRule", "Nothing to fix; nfd-fn passes an object through and leaves out what is not one."},
	{"NFD024", "unknown-kind", "An object in NFD's API group with a kind nfd-fn does not know",
		"`kind: NodeFeatureRules`", "Use NodeFeatureRule, NodeFeatureGroup or NodeFeature."},
	{"NFD025", "api-version", "An NFD kind at an apiVersion nfd-master does not serve",
		"`apiVersion: nfd.k8s-sigs.io/v1beta1`", "Use nfd.k8s-sigs.io/v1alpha1."},
	{"NFD026", "no-node-name", "A NodeFeature without the nfd.node.kubernetes.io/node-name label, attached to no node",
		"a NodeFeature written by hand without labels", "Add the label with the node's name."},
	{"NFD027", "rule-failed", "A rule that fails on nodes of the fleet, so nfd-master skips it there; a template's failure says the rule matched, then its template failed (not \"matches no node\"). One finding per rule and field names the first nodes",
		"a template reading an element some nodes lack", "Read the message; fix the rule or the template."},
	{"NFD028", "group-rule-failed", "A NodeFeatureGroup rule that fails on nodes of the fleet",
		"a group rule comparing a non-numeric element with Gt", "Fix the group rule; the node is not added by it."},
	{"NFD029", "output-dropped", "A label, annotation, extended resource or taint nfd-master drops on a node (a template's output from each node's features: one finding naming the first nodes, quoting the first)",
		"an @-reference that resolves to a value that is not a label value", "Fix the output or the feature it reads."},
	{"NFD030", "taint-disabled", "A taint a rule sets while enableTaints is off",
		"`taints:` in a rule, with the default configuration", "Set enableTaints: \"true\" if nfd-master runs with -enable-taints."},
	{"NFD031", "taints-annotation", "A taints annotation nfd-master cannot parse, so it leaves taints alone",
		"`nfd.node.kubernetes.io/taints: \"\"` on a Node", "Remove or repair the annotation on the Node."},
	{"NFD032", "node-update-failed", "A Node update nfd-master would fail, leaving (part of) the node as it was",
		"an owned extended resource in capacity but not in allocatable", "Repair the Node's status, or the output the API server refuses (see validateNodes)."},
	{"NFD033", "group-member-unnamed", "A group member whose NodeFeatures lack system.name's nodename: nfd-master lists it with an empty name",
		"hand-written NodeFeatures without system.name", "Publish the NodeFeature with nfd-worker (it reports system.name)."},
	{"NFD034", "explain", "Why a rule matched or not on a node (explainNode), informational",
		"`explainNode: worker-1`", "Nothing to fix."},
	{"NFD035", "config", "A problem in the functionConfig",
		"`enableTaint: \"true\"` (misspelt key)", "Use the key the did-you-mean names; the README lists every key."},
	{"NFD036", "template-file", "A template file (Helm): {{ }} anywhere but in a labelsTemplate or varsTemplate value, so YAML only once rendered; not checked",
		"`templates/rules.yaml` with `{{ .Values }}`, or with `name: \"{{ .Release.Name }}-gpu\"`", "Validate what `helm template` renders."},
	{"NFD037", "api-version-alias", "A NodeFeatureRule in the OpenShift NFD operator's group, read as upstream",
		"`apiVersion: nfd.openshift.io/v1alpha1`", "Nothing to fix for OpenShift; use nfd.k8s-sigs.io/v1alpha1 for upstream NFD."},
	{"NFD038", "feature-gate", "A feature gate setting nfd-master refuses or warns about",
		"`featureGates: DisableAutoPrefx=true`", "Use a known gate; the did-you-mean names the closest."},
	{"NFD039", "namespace-not-selected", "A NodeFeature in a namespace nodeFeatureNamespaceSelector does not select",
		"a vendor NodeFeature outside the selected namespaces", "Label the namespace, or widen the selector, if nfd-master should read it."},
	{"NFD040", "unused-suppression", "A suppression that silences nothing",
		"`nfd-fn.dev/ignore: NFD020` on a rule that matches nodes", "Remove the suppression."},
	{"NFD041", "plan", "What a rule change does to the nodes and workloads (nfd-fn plan, mode plan), informational",
		"`+ feature.node.kubernetes.io/avx2=true on 412 nodes`", "Nothing to fix: review it."},
	{"NFD042", "plan-base", "Objects in the --base paths the plan does not use (only their rules and groups count)",
		"NodeFeatures under --base", "Give the snapshot once, with the head's paths."},
	{"NFD043", "plan-no-eligible-node", "A workload the change leaves with no node it can run on",
		"a Deployment selecting `feature.node.kubernetes.io/gpu=true` after the label's rule is removed", "Keep the label, or change the workload's selector in the same change."},
	{"NFD044", "workload-affinity", "A workload affinity the API server would refuse: it matches no node",
		"`nodeAffinity` with an `In` requirement without values", "Fix the affinity; the API server rejects the object as written."},
	{"NFD045", "workload-kind", "A document among the workloads that is not a workload kind, skipped",
		"a Service in the Helm output", "Nothing to fix."},
	{"NFD046", "workload-template", "A workload whose pod template cannot be found or read, not planned",
		"a Deployment without spec.template.spec", "Give the workload a pod template, or leave it out of --workloads."},
	{"NFD047", "object-name", "An object without metadata or metadata.name, or with a name or namespace the API server refuses (not used)",
		"`metadata: {name: ../../tmp/x}`, or a NodeFeatureRule without metadata", "Give the object a lowercase RFC 1123 name (a subdomain; a label for namespaces)."},
	{"NFD048", "node-name", "A NodeFeature whose nfd.node.kubernetes.io/node-name label is not a valid node name, attached to no node",
		"`nfd.node.kubernetes.io/node-name: ../../../../tmp/x`", "Label the NodeFeature with the node's name as the API server holds it."},
	{"NFD049", "output-disabled", "An output that the given configuration's restrictions.disableLabels, disableAnnotations or disableExtendedResources switches off",
		"`labels:` in a rule, with `disableLabels: \"true\"`", "Drop the output, or the restriction if nfd-master should write it."},
	{"NFD050", "builtin-module", "A kernel.loadedmodule expression on a module common kernels build in, which /proc/modules never lists",
		"`kernel.loadedmodule` with element `nvme`", "Match `kernel.enabledmodule`, which lists loaded and built-in modules."},
	{"NFD051", "ignored-type", "A `type` on an operator that ignores it (only Gt, Ge, Lt, Le, GtLt and GeLe read it)",
		"`{op: In, value: [\"6.8\"], type: version}`", "Drop the type, or use a comparison operator (`Ge` with `type: version`)."},
	{"NFD052", "template-labels", "A labelsTemplate whose output cannot be labels (a line that is not key[=value], a key nfd-master rejects), run on features made from its matcher; with a fleet whose nodes show the problem, NFD027 or NFD029 reports it instead",
		"`{{ range .pci.device }}vendor {{ .vendor }}{{ end }}`", "Emit one `key=value` line per label, with a valid key and value."},
	{"NFD053", "reference-value", "An @feature.element label value that the rule's own matcher pins to strings that are not valid label values",
		"`vendor: \"@system.dmiid.board_vendor\"` with `board_vendor: {op: In, value: [\"Dell Inc.\"]}`", "Write a literal label value (`vendor: dell`)."},
	{"NFD054", "group-namespace", "A NodeFeatureGroup outside nfd-master's namespace, whose status nfd-master never writes (every release from v0.16, NFD #2385)",
		"a NodeFeatureGroup in namespace `default`", "Create the group in nfd-master's namespace. Once that namespace is known (`nfdNamespace`, or the nfd-master Deployment in the input) render leaves such a group's status as it was, as nfd-master does; `groupStatusAllNamespaces: \"true\"` renders a fixed nfd-master's status instead."},
	{"NFD055", "worker-custom-rule", "A custom rule in an nfd-worker configuration that the worker's custom source refuses, ignores or misreads (Ge, Le, GeLe, type, a misspelt matchFeatures, which leaves a rule matching every node)",
		"`sources.custom` rule with `{op: Ge, value: [\"6\"]}`, or with `matchFeature:`", "Use Gt, Lt or GtLt (the custom source's operators), without type, and the field the did-you-mean names. The configuration is `validate --worker-config FILE`, or in KRM mode the input's ConfigMap with `data[\"nfd-worker.conf\"]` (NFD's Helm chart and kustomize deployment make it)."},
	{"NFD056", "pci-class", "A pci.device class value that is not a PCI class code (a vendor or device id written as a class), or a vendor or device id not in nfd-worker's form (0x10de, 10DE)",
		"`class: {op: In, value: [\"10de\"]}`", "Match the id under `vendor` or `device`; classes are four hex digits such as 0300."},
	{"NFD057", "empty-term", "A matcher term with no matchExpressions and no matchName: it matches whenever the feature exists",
		"`- feature: pci.device` alone", "Name the elements the term should test."},
	{"NFD058", "no-publish-feature", "A rule consuming a feature the given nfd-worker configuration withholds (core.noPublishFeatures)",
		"`feature: pci.device` with `noPublishFeatures: [\"pci.*\"]`", "Stop withholding the feature, or match another one. The configuration is `validate --worker-config FILE`, or in KRM mode the input's ConfigMap with `data[\"nfd-worker.conf\"]`."},
	{"NFD059", "worker-config", "A setting of an nfd-worker configuration that nfd-worker refuses (error: it stops), ignores or reads otherwise than written (error: a misspelt key, an unquoted `0200` read as \"128\"), or a note on it (warning); discover --config reports the same at the same lines",
		"`deviceClassWhitelist: [0200]`", "Quote the value or use the key the did-you-mean names. The configuration is `validate --worker-config FILE` (the file, its ConfigMap or Helm values), or in KRM mode the input's ConfigMap with `data[\"nfd-worker.conf\"]`."},
	{"NFD060", "kustomize-patch", "A file a kustomization names as a patch (patches, patchesStrategicMerge, patchesJson6902): the fields it changes, not a whole object, so validate leaves it unchecked instead of reading it as a second copy of the object it patches",
		"`overlays/prod/patch-rule.yaml` under `patches: [{path: patch-rule.yaml}]`", "Nothing to fix; check what the overlay builds: `kustomize build overlays/prod | nfd-fn validate -`."},
	// NFD300-NFD319: the NFD release rendered as (docs/releases.md).
	{"NFD300", "admission-rejected", "An object the API server of the NFD release rendered as refuses whole (its CRD schema: an operator, a required field, a type); nfd-master never sees it",
		"`op: Ge` with `nfdVersion: v0.17.1`", "Write what that release accepts (the message names the first release that accepts it), or upgrade NFD."},
	{"NFD301", "admission-pruned", "A field the release's CRD schema does not know (a newer release's): pruned under fieldValidation=Warn (client-go, Helm); under Strict (kubectl apply, and validate unless strictFieldValidation: false) the object is refused whole (NFD300)",
		"`type: version` on a match expression with `nfdVersion: v0.17.1`", "Drop the field, or upgrade NFD; the rule runs as if it were not there."},
	{"NFD302", "release-assumed", "The NFD release rendered as, taken from the input (an nfd-master or nfd-worker image, the NodeFeatures' worker.version annotation)",
		"an export holding the nfd-master Deployment at v0.17.1", "Nothing to fix; set nfdVersion to choose the release."},
	{"NFD303", "release-mismatch", "The input shows another NFD release than the one given, or two releases",
		"`nfdVersion: v0.19.0` with NodeFeatures written by nfd-worker v0.17.1", "Set nfdVersion to the release the cluster runs."},
	{"NFD304", "needs-release", "With nfdVersion unset, a rule or group that needs a recent NFD release (Ge, Le, GeLe, type, group vars, Sprig functions)",
		"`op: Ge` in a repository whose clusters run NFD v0.17", "Set nfdVersion to the cluster's release to check the rule against it, or write it for older releases (Gt, Lt, In)."},
	{"NFD305", "release-unreadable", "With nfdVersion unset, an nfd-master or nfd-worker image in the input whose NFD release nfd-fn cannot read (pinned by digest, as OLM deploys OpenShift's operand; an OpenShift release without a profile, such as 4.19; a release nfd-fn does not model)",
		"`ose-node-feature-discovery-rhel9@sha256:...` in an nfd-master Deployment", "Set nfdVersion (or --nfd-version) to the release the cluster runs; docs/releases.md says which OpenShift ships which."},
	{"NFD310", "worker-labels-kept", "With a worker configuration given (`--worker-config`), labels nfd-fn cannot recompute from the snapshot's features and keeps as the worker published them: the feature they need is not in the NodeFeature (core.noPublishFeatures), or they come from custom.d files or features.d hooks on the host",
		"a snapshot taken with `noPublishFeatures: [\"pci.*\"]`, planned with a new `deviceLabelFields`", "Nothing to fix; take the snapshot without noPublishFeatures to plan those labels too."},
	{"NFD311", "worker-label-gone", "A workload selects a label nfd-worker no longer publishes with the given worker configuration (NodeFeatureRules and groups never read labels: NFD313 is theirs)",
		"a DaemonSet selecting `feature.node.kubernetes.io/pci-10de.present` with `deviceLabelFields: [vendor, device]`", "Select the label the new configuration publishes (`plan --base-worker-config` shows the rename), or keep the configuration."},
	{"NFD312", "crd-version", "The input's NodeFeature CRDs are of another NFD release than the operand's: the API server admits (and prunes) objects with the CRDs' schema",
		"a CRD chart at v0.17.3 under a v0.19.0 nfd-master", "Upgrade the CRDs with the operand; `--crd-version` renders with the CRDs the cluster really has."},
	{"NFD313", "worker-feature-gone", "A rule or group reads a feature nfd-worker no longer publishes with the given worker configuration (its source left out of core.featureSources, or named by core.noPublishFeatures), for nodes whose snapshot has it",
		"a rule on `pci.device` with `featureSources: [all, -pci]` in the new configuration", "Keep the source (or the feature) published, or match the rule on another feature."},
	{"NFD314", "nfd-master-managed", "A Node whose managedFields show nfd-master (manager nfd-master, operation Update) owning labels, annotations, taints or extended resources nfd-fn writes (render, plan): nfd-fn's server-side apply shares the equal ones without a conflict and conflicts on the others, but one only nfd-master's entries hold (a removed rule's label) is never removed and is orphaned",
		"Nodes exported with `kubectl get nodes -o yaml --show-managed-fields` from a cluster nfd-master labelled", "Stop nfd-master, then clear its managedFields entries (docs/pipelines.md, Taking over from nfd-master) before the first `kubectl apply --server-side --field-manager=nfd-fn`."},
	{"NFD315", "apply-taints-replace", "Apply-ready output (render --output apply) written for nodes with no Node object in the input, carrying taints or with enableTaints on: a Node's spec.taints is an atomic list for server-side apply, so the apply sets the node's whole list (others' taints dropped, or a conflict with the manager that owns the list) and cannot remove NFD taints the render does not see",
		"`nfd-fn render --output apply nodefeatures.yaml rules/` with a rule that taints", "Export the Nodes with the NodeFeatures (`kubectl get nodes,nodefeatures -A -o yaml`): nfd-fn then writes each node's whole taint list, others' taints kept."},
	{"NFD316", "plan-no-before", "A plan with no `--base` (its before side is the input's Node objects) over nodes that have no Node object in the input: their before side is empty, so everything NFD gives them shows as added, a change the rules do not make",
		"`nfd-fn plan nodefeatures.yaml rules/` without the cluster's Nodes", "Give the cluster's Nodes with the snapshot (`kubectl get nodes,nodefeatures -A -o yaml`), or the rules before the change with `--base`."},
}

// Checks maps each check's name to its summary (the SARIF rule metadata).
var Checks = func() map[string]string {
	m := make(map[string]string, len(Catalogue))
	for _, c := range Catalogue {
		m[c.Name] = c.Summary
	}
	return m
}()

// Lookup finds a check by its ID or its name.
func Lookup(idOrName string) (Check, bool) {
	for _, c := range Catalogue {
		if c.ID == idOrName || c.Name == idOrName {
			return c, true
		}
	}
	return Check{}, false
}

// ID is the stable ID of the diagnostic's check, "" when it has none.
func (d Diagnostic) ID() string {
	c, _ := Lookup(d.Check)
	return c.ID
}

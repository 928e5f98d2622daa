package precommittest

import (
	"fmt"
	"strings"
	"testing"
)

// ruleWith is a NodeFeatureRule named name whose one rule is body (rule
// fields, indented six spaces).
func ruleWith(name, body string) string {
	return fmt.Sprintf(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: %s
spec:
  rules:
    - name: r
%s`, name, body)
}

const kernelMatch = `      matchFeatures:
        - feature: kernel.version
`

// certainDefects are one file per class of defect nfd-master can never
// run (issue 27, docs/checks.md#severity), with a part of the finding the
// hook must print.
var certainDefects = []struct{ name, content, want string }{
	{"bad-regexp", ruleWith("a", "      labels: {x: \"1\"}\n      matchFeatures:\n        - feature: kernel.version\n          matchExpressions:\n            full: {op: InRegexp, value: [\"(a\"]}\n"), "missing closing )"},
	{"gt-two-values", ruleWith("a", "      labels: {x: \"1\"}\n      matchFeatures:\n        - feature: kernel.version\n          matchExpressions:\n            major: {op: Gt, value: [\"1\", \"2\"]}\n"), "takes exactly one value"},
	{"gtlt-reversed", ruleWith("a", "      labels: {x: \"1\"}\n      matchFeatures:\n        - feature: kernel.version\n          matchExpressions:\n            major: {op: GtLt, value: [\"5\", \"1\"]}\n"), "lower bound below its upper bound"},
	{"istrue-with-values", ruleWith("a", "      labels: {x: \"1\"}\n      matchFeatures:\n        - feature: memory.numa\n          matchExpressions:\n            is_numa: {op: IsTrue, value: [\"true\"]}\n"), "takes no values"},
	{"not-a-number", ruleWith("a", "      labels: {x: \"1\"}\n      matchFeatures:\n        - feature: kernel.version\n          matchExpressions:\n            major: {op: Gt, value: [\"six\"]}\n"), "not a number"},
	{"unprefixed-taint", ruleWith("a", "      taints: [{key: dedicated, effect: NoSchedule}]\n"+kernelMatch), "unprefixed keys are not allowed"},
	{"kubernetes-annotation", ruleWith("a", "      annotations: {kubernetes.io/owner: me}\n"+kernelMatch), "namespace is not allowed"},
	{"later-backref", ruleWith("a", "      labels: {x: \"1\"}\n      matchFeatures:\n        - feature: rule.matched\n          matchExpressions:\n            later: {op: Exists}\n") + "---\n" + ruleWith("z", "      labels: {later: \"true\"}\n"+kernelMatch), "runs after this rule"},
	{"misspelt-group", strings.Replace(ruleWith("a", "      labels: {x: \"1\"}\n"+kernelMatch), "nfd.k8s-sigs.io", "nfd.k8s.sigs.io", 1), `did you mean "nfd.k8s-sigs.io/v1alpha1"`},
	{"misspelt-kind", strings.Replace(ruleWith("a", "      labels: {x: \"1\"}\n"+kernelMatch), "kind: NodeFeatureRule", "kind: NodeFeatureRules", 1), `did you mean "NodeFeatureRule"`},
	{"helm-key", ruleWith("a", "      labels:\n        {{ .Values.label }}: \"true\"\n"+kernelMatch), "a key here must be a string"},
	{"unknown-field", ruleWith("a", "      lables: {x: \"1\"}\n"+kernelMatch), `did you mean "labels"`},
	{"worker-custom-ge", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nfd-worker-conf\ndata:\n  nfd-worker.conf: |\n    sources:\n      custom:\n        - name: k\n          labels: {k: \"true\"}\n          matchFeatures:\n            - feature: kernel.version\n              matchExpressions:\n                major: {op: Ge, value: [\"6\"]}\n", "invalid Op \"Ge\" (nfd-worker's custom rules know"},
}

// TestHookBlocksEveryCertainDefectAndShowsWarnings runs the real
// pre-commit with the plain hook on one file per certain defect: each
// fails the commit and prints its finding. A file with only a warning
// passes the plain hook, whose output still shows the warning (verbose),
// and fails the strict one.
func TestHookBlocksEveryCertainDefectAndShowsWarnings(t *testing.T) {
	requirePreCommit(t)
	hookRepo := hookRepo(t)
	work := t.TempDir()
	git(t, work, "init", "-q")
	rev := git(t, hookRepo, "rev-parse", "HEAD")
	hook := func(id string) string {
		return "repos:\n  - repo: " + hookRepo + "\n    rev: " + rev + "\n    hooks:\n      - id: " + id + "\n"
	}
	writeFile(t, work, ".pre-commit-config.yaml", hook("nfd-fn-validate"))
	writeFile(t, work, "strict.yaml", hook("nfd-fn-validate-strict"))
	for _, d := range certainDefects {
		writeFile(t, work, d.name+".yaml", d.content)
	}
	warnOnly := ruleWith("w", "      labels: {x: \"1\"}\n      matchFeatures:\n        - feature: kernel.loadedmodules\n          matchExpressions: {nvidia: {op: Exists}}\n")
	writeFile(t, work, "warn.yaml", warnOnly)
	git(t, work, "add", ".")
	for _, d := range certainDefects {
		t.Run(d.name, func(t *testing.T) {
			out, code := preCommit(t, work, d.name+".yaml")
			if code == 0 || !strings.Contains(out, d.name+".yaml:") || !strings.Contains(out, ": error: ") || !strings.Contains(out, d.want) {
				t.Errorf("hook exit %d; want a failure printing an error with %q:\n%s", code, d.want, out)
			}
		})
	}
	out, code := preCommit(t, work, "warn.yaml")
	if code != 0 || !strings.Contains(out, "warn.yaml:10:") || !strings.Contains(out, "warning") || !strings.Contains(out, "0 errors, 1 warning") {
		t.Errorf("plain hook on a warning: exit %d; want a pass that prints the warning:\n%s", code, out)
	}
	out, code = runPreCommit(t, work, "run", "--config", "strict.yaml", "--files", "warn.yaml")
	if code == 0 || !strings.Contains(out, "warn.yaml:10:") {
		t.Errorf("strict hook on a warning: exit %d; want a failure printing it:\n%s", code, out)
	}
}

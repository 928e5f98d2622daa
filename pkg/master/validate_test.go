package master

import (
	"regexp"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

func TestCheckLabelPolicyDropsAreWarningsInvalidLabelsErrors(t *testing.T) {
	tests := []struct {
		name       string
		opts       func(*Options)
		key, value string
		want       diag.Severity // "" for accepted
	}{
		{"unprefixed-is-auto-prefixed", nil, "x", "1", ""},
		{"feature-namespace", nil, "feature.node.kubernetes.io/x", "1", ""},
		{"feature-subnamespace", nil, "vendor.feature.node.kubernetes.io/x", "1", ""},
		{"profile-namespace", nil, "profile.node.kubernetes.io/x", "1", ""},
		{"own-namespace", nil, "example.com/x", "1", ""},
		{"dynamic-value-judged-per-node", nil, "example.com/x", "@kernel.version.major", ""},
		{"kubernetes-namespace-dropped", nil, "kubernetes.io/x", "1", diag.Warning},
		{"kubernetes-subnamespace-dropped", nil, "node.kubernetes.io/x", "1", diag.Warning},
		{"invalid-value", nil, "example.com/x", "a b", diag.Error},
		{"value-too-long", nil, "example.com/x", "0123456789012345678901234567890123456789012345678901234567890123", diag.Error},
		{"invalid-key", nil, "example.com/bad key", "1", diag.Error},
		{"denied-namespace", func(o *Options) { o.DenyLabelNs = []string{"example.com"} }, "example.com/x", "1", diag.Warning},
		{"denied-but-extra", func(o *Options) { o.DenyLabelNs = []string{"example.com"}; o.ExtraLabelNs = []string{"example.com"} }, "example.com/x", "1", ""},
		{"wildcard-deny-matches-subdomains", func(o *Options) { o.DenyLabelNs = []string{"*.example.com"} }, "a.example.com/x", "1", diag.Warning},
		{"wildcard-deny-not-the-domain-itself", func(o *Options) { o.DenyLabelNs = []string{"*.example.com"} }, "example.com/x", "1", ""},
		{"extra-allows-a-kubernetes-namespace", func(o *Options) { o.ExtraLabelNs = []string{"node.kubernetes.io"} }, "node.kubernetes.io/x", "1", ""},
		{"whitelist-miss", func(o *Options) { o.LabelWhiteList = regexp.MustCompile("^a") }, "example.com/b", "1", diag.Warning},
		{"whitelist-hit", func(o *Options) { o.LabelWhiteList = regexp.MustCompile("^a") }, "example.com/abc", "1", ""},
		{"unprefixed-without-auto-prefix", func(o *Options) { o.AutoPrefix = false }, "x", "1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			if tc.opts != nil {
				tc.opts(&o)
			}
			v := o.CheckLabel(tc.key, tc.value)
			got := diag.Severity("")
			if v != nil {
				got = v.Severity
				if v.Err == nil {
					t.Fatal("verdict without an error")
				}
			}
			if got != tc.want {
				t.Errorf("CheckLabel(%q, %q) = %q (%v), want %q", tc.key, tc.value, got, v, tc.want)
			}
		})
	}
}

func TestCheckExtendedResourceAndTaintValues(t *testing.T) {
	o := DefaultOptions()
	for _, tc := range []struct {
		key, value string
		ok         bool
	}{
		{"gpus", "2", true},
		{"gpus", "@kernel.version.major", true},
		{"example.com/gpus", "1Gi", true},
		{"gpus", "lots", false},
		{"bad name!", "1", false},
	} {
		if got := o.CheckExtendedResource(tc.key, tc.value) == nil; got != tc.ok {
			t.Errorf("CheckExtendedResource(%q, %q) accepted=%v, want %v", tc.key, tc.value, got, tc.ok)
		}
	}
}

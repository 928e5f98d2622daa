package modes

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestLoadSettingsSaysWhyARunCannotGoOn: LoadSettings returns the
// settings file's findings (warnings and notes before errors) and, when
// the run cannot go on, a *SettingsError that says whose fault it is: the
// command line's (a --config file, a flag's value: usage) or an input's
// (a ResourceList's functionConfig among the files); SettingsLines are
// what the command line tells of them.
func TestLoadSettingsSaysWhyARunCannotGoOn(t *testing.T) {
	const rules = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec: {rules: []}\n"
	const list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data:\n    nfdVersion: v0.1.0\n"
	tests := []struct {
		name  string
		files map[string]string
		paths []string
		flags SettingsFlags
		lines []string // SettingsLines("validate", ...), each cut to the length of the wanted one
		usage bool     // a *SettingsError of the command line; nil error when no line is an error
		fails bool
	}{
		{name: "defaults", files: map[string]string{"r.yaml": rules}, paths: []string{"r.yaml"}},
		{name: "config-file-with-a-warning", files: map[string]string{"r.yaml": rules, "c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  hostRoot: /host\n"},
			paths: []string{"r.yaml"}, flags: SettingsFlags{Config: "c.yaml"}, lines: []string{"c.yaml: warning: data.hostRoot: hostRoot is a mode discover setting"}},
		{name: "warnings-before-errors", files: map[string]string{"r.yaml": rules, "c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  unknownKey: \"1\"\n  hostRoot: /host\n"},
			paths: []string{"r.yaml"}, flags: SettingsFlags{Config: "c.yaml"}, lines: []string{"c.yaml: warning: data.hostRoot: ", "c.yaml: error: data.unknownKey: "}, usage: true, fails: true},
		{name: "config-file-with-an-error-is-usage", files: map[string]string{"r.yaml": rules, "c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  nfdVersion: v0.1.0\n"},
			paths: []string{"r.yaml"}, flags: SettingsFlags{Config: "c.yaml"}, lines: []string{"c.yaml: error: data.nfdVersion: "}, usage: true, fails: true},
		{name: "a-missing-config-file-is-usage", files: map[string]string{"r.yaml": rules}, paths: []string{"r.yaml"}, flags: SettingsFlags{Config: "none.yaml"},
			lines: []string{`nfd-fn validate: reading "none.yaml": `}, usage: true, fails: true},
		{name: "a-list-functionconfig-with-an-error-is-input", files: map[string]string{"list.yaml": list}, paths: []string{"list.yaml"},
			lines: []string{"list.yaml: error: data.nfdVersion: "}, fails: true},
		{name: "a-list-functionconfig-and-a-config-file-is-usage", files: map[string]string{"list.yaml": list, "c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"},
			paths: []string{"list.yaml"}, flags: SettingsFlags{Config: "c.yaml"}, lines: []string{"nfd-fn validate: "}, usage: true, fails: true},
		{name: "a-bad-nfd-version-flag", files: map[string]string{"r.yaml": rules}, paths: []string{"r.yaml"}, flags: SettingsFlags{NFDVersion: "v9"},
			lines: []string{"nfd-fn validate: --nfd-version: "}, usage: true, fails: true},
		{name: "a-bad-crd-version-flag", files: map[string]string{"r.yaml": rules}, paths: []string{"r.yaml"}, flags: SettingsFlags{CRDVersion: "v9"},
			lines: []string{"nfd-fn validate: --crd-version: "}, usage: true, fails: true},
		{name: "a-good-release-flag", files: map[string]string{"r.yaml": rules}, paths: []string{"r.yaml"}, flags: SettingsFlags{NFDVersion: "v0.17.1", CRDVersion: "v0.17.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			testkit.WriteFiles(t, ".", tt.files)
			f := OpenFiles(tt.paths, nil)
			defer f.Close()
			found, err := f.LoadSettings(tt.flags)
			lines := SettingsLines("validate", found, err)
			if diff := cmp.Diff(tt.lines, testkit.CutTo(lines, tt.lines)); diff != "" {
				t.Errorf("lines (-want +got):\n%s\nall: %q", diff, lines)
			}
			var refused *SettingsError
			switch {
			case !tt.fails && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.fails && !errors.As(err, &refused):
				t.Errorf("error %v, want a *SettingsError", err)
			case tt.fails && refused.Usage != tt.usage:
				t.Errorf("Usage %v, want %v", refused.Usage, tt.usage)
			}
			if tt.flags.NFDVersion != "" && err == nil && !f.Settings.ReleaseGiven {
				t.Errorf("--nfd-version %s was not applied", tt.flags.NFDVersion)
			}
		})
	}
}

// TestSettingsTextIsWhatTheCommandLinePrints: nfd-test reports a suite
// whose settings are refused with the lines the command line would print,
// escaped as it escapes them.
func TestSettingsTextIsWhatTheCommandLinePrints(t *testing.T) {
	err := &SettingsError{Usage: true, Reasons: []error{errors.New("--nfd-version: not \x1b[31ma release")}}
	got := settingsText("test", nil, err)
	if strings.Contains(got, "\x1b") || !strings.HasPrefix(got, "nfd-fn test: --nfd-version: not ") {
		t.Errorf("got %q", got)
	}
}

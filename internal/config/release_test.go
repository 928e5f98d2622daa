package config

import (
	"strings"
	"testing"
)

func configMap(data string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {" + data + "}"
}

func TestNfdVersionSelectsTheRelease(t *testing.T) {
	s, msgs := load(t, configMap(`nfdVersion: v0.17.1`))
	if len(msgs) > 0 || !s.ReleaseGiven || s.Options.NFDRelease().Name != "v0.17.1" {
		t.Errorf("release %s given %v, problems %v", s.Options.NFDRelease(), s.ReleaseGiven, msgs)
	}
	s, _ = load(t, configMap(``))
	if s.ReleaseGiven || s.Options.NFDRelease().Name != "v0.19.0" {
		t.Errorf("unset: release %s given %v", s.Options.NFDRelease(), s.ReleaseGiven)
	}
}

func TestUnknownNfdVersionIsAnErrorListingTheSupportedOnes(t *testing.T) {
	s, msgs := load(t, configMap(`nfdVersion: v0.20.0`))
	if len(msgs) != 1 || !strings.Contains(msgs[0], `error data.nfdVersion: unknown NFD release "v0.20.0": nfd-fn renders as v0.16.0 to v0.16.9, v0.17.0 to v0.17.4`) {
		t.Errorf("problems %v", msgs)
	}
	if s.Options.NFDRelease().Name != "v0.19.0" {
		t.Errorf("an unknown release renders as %s, want the default", s.Options.NFDRelease())
	}
}

// releaseProblems are the settings' problems with the release, as load
// words them.
func releaseProblems(s Settings) []string {
	var msgs []string
	for _, d := range s.ReleaseProblems() {
		msgs = append(msgs, string(d.Severity)+" "+d.Field+": "+d.Message)
	}
	return msgs
}

func TestRestrictionsAreNotSettingsOfV016(t *testing.T) {
	s, msgs := load(t, configMap(`nfdVersion: v0.16.9, disableLabels: "true", allowOverwrite: "false"`))
	msgs = append(msgs, releaseProblems(s)...)
	if s.Options.DisableLabels || !s.Options.AllowOverwrite {
		t.Errorf("v0.16.9 applied restrictions: %+v", s.Options)
	}
	want := "error data.disableLabels: disableLabels is not a setting of NFD v0.16.9's nfd-master (it has it from v0.17.0 on): ignored"
	if len(msgs) != 2 || msgs[0] != want {
		t.Errorf("problems %v, want first %q", msgs, want)
	}
	if s, msgs := load(t, configMap(`nfdVersion: v0.17.1, disableLabels: "true"`)); !s.Options.DisableLabels || len(msgs)+len(s.ReleaseProblems()) > 0 {
		t.Errorf("v0.17.1: disableLabels %v, problems %v", s.Options.DisableLabels, msgs)
	}
}

func TestAutoDefaultNsIsASettingUpToV017(t *testing.T) {
	s, msgs := load(t, configMap(`nfdVersion: v0.17.1, autoDefaultNs: "false"`))
	if s.Options.AutoPrefix || len(msgs) > 0 {
		t.Errorf("v0.17.1 autoDefaultNs false: AutoPrefix %v, problems %v", s.Options.AutoPrefix, msgs)
	}
	s, msgs = load(t, configMap(`autoDefaultNs: "false"`))
	msgs = append(msgs, releaseProblems(s)...)
	want := "error data.autoDefaultNs: autoDefaultNs is not a setting of NFD v0.19.0's nfd-master (v0.17.4 and earlier have it): ignored"
	if !s.Options.AutoPrefix || len(msgs) != 1 || msgs[0] != want {
		t.Errorf("v0.19.0: AutoPrefix %v, problems %v, want %q", s.Options.AutoPrefix, msgs, want)
	}
}

func TestUseReleaseOverridesNfdVersion(t *testing.T) {
	s, _ := load(t, configMap(`nfdVersion: v0.17.1`))
	if ds := s.UseRelease("openshift-5.0"); len(ds) > 0 || s.Options.NFDRelease().Name != "openshift-5.0" {
		t.Errorf("release %s, problems %v", s.Options.NFDRelease(), ds)
	}
	s, _ = load(t, configMap(`nfdVersion: v0.16.9, disableLabels: "true"`))
	if s.UseRelease("v0.18.3"); !s.Options.DisableLabels || len(s.ReleaseProblems()) > 0 {
		t.Errorf("a release with restrictions must apply the setting v0.16.9 left out: disableLabels %v, problems %v", s.Options.DisableLabels, s.ReleaseProblems())
	}
	if ds := s.UseRelease("v9"); len(ds) != 1 {
		t.Errorf("an unknown --nfd-version gave %v", ds)
	}
}

func TestStrictFieldValidationKey(t *testing.T) {
	if s, msgs := load(t, configMap(`strictFieldValidation: "true"`)); !s.StrictFieldValidation || len(msgs) > 0 {
		t.Errorf("strictFieldValidation %v, problems %v", s.StrictFieldValidation, msgs)
	}
}

func TestCrdVersionAdmitsWithThatReleasesCRDsUnderTheOperandsMaster(t *testing.T) {
	s, msgs := load(t, configMap(`nfdVersion: v0.19.0, crdVersion: v0.17.3`))
	rel := s.Options.NFDRelease()
	if len(msgs) > 0 || rel.Name != "v0.19.0" || rel.Engine.String() != "v0.19.0" || rel.Schema.String() != "v0.17.3" {
		t.Errorf("release %s engine %s schema %s, problems %v", rel, rel.Engine, rel.Schema, msgs)
	}
	// A release set later (--nfd-version) keeps the CRDs.
	s.UseRelease("v0.18.3")
	if rel := s.Options.NFDRelease(); rel.Engine.String() != "v0.18.3" || rel.Schema.String() != "v0.17.3" {
		t.Errorf("after --nfd-version: engine %s schema %s", rel.Engine, rel.Schema)
	}
	_, msgs = load(t, configMap(`crdVersion: v0.20.0`))
	if len(msgs) != 1 || !strings.Contains(msgs[0], `error data.crdVersion: unknown NFD release "v0.20.0"`) {
		t.Errorf("problems %v", msgs)
	}
}

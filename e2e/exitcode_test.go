package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanDetailedExitcodeIsOneOnUsageAndIOErrors is issue 26's point 1:
// under --detailed-exitcode, 2 means "changes" and nothing else, so a
// mistyped path, an unknown flag or a bad -o exits 1 (as terraform plan
// does), through the binary and through docs/ci's script; without the
// flag they stay usage errors, 2.
func TestPlanDetailedExitcodeIsOneOnUsageAndIOErrors(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	plan := []string{"plan", "--config", "config.yaml", "--base", "base"}
	tests := []struct {
		name      string
		args      []string
		want      int
		wantInErr string
	}{
		{"mistyped-path", []string{"--detailed-exitcode", "snapshot.yaml", "rulez/"}, 1, "rulez/"},
		{"mistyped-base", []string{"--detailed-exitcode", "--base", "bsae/", "snapshot.yaml", "rules"}, 1, "bsae/"},
		{"unknown-flag-before", []string{"--detailled", "--detailed-exitcode", "snapshot.yaml", "rules"}, 1, "-detailled"},
		{"unknown-flag-after", []string{"--detailed-exitcode", "snapshot.yaml", "rules", "--wrokloads", "workloads"}, 1, "-wrokloads"},
		{"bad-output", []string{"--detailed-exitcode", "-o", "yaml", "snapshot.yaml", "rules"}, 1, `"yaml"`},
		{"no-paths", []string{"--detailed-exitcode"}, 1, "at least one PATH"},
		{"changes", []string{"--detailed-exitcode", "snapshot.yaml", "rules"}, 2, ""},
		{"no-changes", []string{"--detailed-exitcode", "--base", "rules", "snapshot.yaml", "rules"}, 0, ""},
		{"mistyped-path-without-the-flag", []string{"snapshot.yaml", "rulez/"}, 2, "rulez/"},
		{"flag-turned-off", []string{"--detailed-exitcode=false", "--bogus", "snapshot.yaml"}, 2, "-bogus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run(t, planFixture, commandEnv(nil), nil, bin, append(plan, tt.args...)...)
			if code != tt.want || !strings.Contains(stderr, tt.wantInErr) {
				t.Errorf("exit %d, want %d; stderr should name %q:\n%s", code, tt.want, tt.wantInErr, stderr)
			}
			if tt.want != 2 && tt.want != 0 && stdout != "" {
				t.Errorf("a plan that was not made printed one:\n%s", stdout)
			}
		})
	}
	t.Run("ci-script-mistyped-rules", func(t *testing.T) {
		repo := planRepository(t)
		stdout, stderr, code := runPlanScript(t, repo, "main", "rules", "snapshot.yml", "--config", "config.yaml")
		if code != 1 || stdout != "" {
			t.Errorf("exit %d, want 1 and no comment; stdout %q, stderr:\n%s", code, stdout, stderr)
		}
	})
	t.Run("help-says-so", func(t *testing.T) {
		stdout, _, code := run(t, ".", commandEnv(nil), nil, bin, "plan", "--help")
		if code != 0 || !strings.Contains(stdout, "bad usage and unreadable paths included") {
			t.Errorf("plan --help (exit %d) does not say usage errors exit 1 under --detailed-exitcode:\n%s", code, stdout)
		}
	})
}

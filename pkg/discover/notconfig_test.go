package discover

import (
	"strings"
	"testing"
)

// TestAFileThatIsNotAWorkerConfigIsNotEchoed checks issue 26 point 8: a
// --config file none of whose top-level keys nfd-worker knows (the wrong
// file: /etc/shadow parses as a mapping of its lines), or that is a list
// or a ConfigMap without data["nfd-worker.conf"], is refused (issue 34
// §3) with an error that quotes none of it, while a real configuration's
// misspelt key is still named in a warning.
func TestAFileThatIsNotAWorkerConfigIsNotEchoed(t *testing.T) {
	tests := []struct {
		name, data string
		want       string
		secret     string
		refused    bool
	}{
		{"shadow-lines", "root:$6$salt$hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n", "not an nfd-worker configuration: none of its 2 top-level keys", "$6$salt", true},
		{"other-yaml", "password: hunter2\n", "not an nfd-worker configuration: none of its 1 top-level keys", "hunter2", true},
		{"a-list", "- password\n- hunter2\n", "not an nfd-worker configuration: a list", "hunter2", true},
		{"configmap-without-the-key", "kind: ConfigMap\ndata: {password: hunter2}\n", `a ConfigMap without a string data["nfd-worker.conf"]`, "hunter2", true},
		{"misspelt-core", "cor:\n  labelWhiteList: x\nsources: {}\n", `unknown field "cor"`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, warnings, err := parseWorkerConfig([]byte(tt.data), latestRelease(), false)
			if (err != nil) != tt.refused {
				t.Fatalf("error %v, want one: %v", err, tt.refused)
			}
			if err != nil {
				warnings = []string{err.Error()}
			}
			all := strings.Join(warnings, "\n")
			if !strings.Contains(all, tt.want) {
				t.Errorf("warnings lack %q:\n%s", tt.want, all)
			}
			if tt.secret != "" && strings.Contains(all, tt.secret) {
				t.Errorf("warnings quote the file:\n%s", all)
			}
		})
	}
}

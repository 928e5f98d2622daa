package discover

import (
	"strings"
	"testing"
)

// TestAFileThatIsNotAWorkerConfigIsNotEchoed checks issue 26 point 8: a
// --config file none of whose top-level keys nfd-worker knows (the wrong
// file: /etc/shadow parses as a mapping of its lines) gets one warning
// that quotes none of it, while a real configuration's misspelt key is
// still named.
func TestAFileThatIsNotAWorkerConfigIsNotEchoed(t *testing.T) {
	tests := []struct {
		name, data string
		want       string
		secret     string
	}{
		{"shadow-lines", "root:$6$salt$hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n", "none of its 2 top-level keys", "$6$salt"},
		{"other-yaml", "password: hunter2\n", "none of its 1 top-level keys", "hunter2"},
		{"misspelt-core", "cor:\n  labelWhiteList: x\nsources: {}\n", `unknown field "cor"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, warnings, err := parseWorkerConfig([]byte(tt.data), latestRelease(), false)
			if err != nil {
				t.Fatal(err)
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

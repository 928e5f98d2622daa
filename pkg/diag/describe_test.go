package diag

import "testing"

func TestDescribeNamesWhatIsKnown(t *testing.T) {
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{"object-and-field", Diagnostic{Object: ObjectRef{Kind: "NodeFeatureRule", Name: "r"}, Field: "spec.rules[0]", Message: "m"}, "NodeFeatureRule/r spec.rules[0]: m"},
		{"object-only", Diagnostic{Object: ObjectRef{Kind: "Node", Name: "n"}, Message: "m"}, "Node/n: m"},
		{"field-without-object", Diagnostic{Field: "meta.schema_version", Message: "m"}, "meta.schema_version: m"},
		{"message-only", Diagnostic{Message: "m"}, "m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.Describe(); got != tt.want {
				t.Errorf("Describe() = %q, want %q", got, tt.want)
			}
		})
	}
}

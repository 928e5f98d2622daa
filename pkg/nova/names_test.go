package nova

import (
	"strings"
	"testing"
)

func TestCustomNameSanitisesLabelAndResourceNames(t *testing.T) {
	tests := []struct {
		name, source, want, wantErr string
	}{
		{name: "feature-prefix-dropped", source: "feature.node.kubernetes.io/cpu-cpuid.AVX512F", want: "CUSTOM_CPU_CPUID_AVX512F"},
		{name: "other-prefix-kept", source: "vendor.io/gpu", want: "CUSTOM_VENDOR_IO_GPU"},
		{name: "profile-prefix-kept", source: "profile.node.kubernetes.io/low-latency", want: "CUSTOM_PROFILE_NODE_KUBERNETES_IO_LOW_LATENCY"},
		{name: "lower-case-upper-cased", source: "feature.node.kubernetes.io/pci-0300_10de.present", want: "CUSTOM_PCI_0300_10DE_PRESENT"},
		{name: "separator-runs-collapse", source: "a--b..c/_d", want: "CUSTOM_A_B_C_D"},
		{name: "separators-at-ends-trimmed", source: "-x-", want: "CUSTOM_X"},
		{name: "nothing-left", source: "feature.node.kubernetes.io/---", wantErr: "no letters or digits"},
		{name: "too-long", source: strings.Repeat("a", 249), wantErr: "256 characters; placement allows at most 255"},
		{name: "longest-allowed", source: strings.Repeat("a", 248), want: "CUSTOM_" + strings.Repeat("A", 248)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CustomName(tt.source)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("CustomName(%q) = %q, %v; want an error containing %q", tt.source, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("CustomName(%q) = %q, %v; want %q", tt.source, got, err, tt.want)
			}
			if err := CheckCustomName(got); err != nil {
				t.Errorf("the name made is not valid: %v", err)
			}
		})
	}
}

func TestTraitNameAppendsValuesOtherThanTrue(t *testing.T) {
	tests := []struct{ key, value, want string }{
		{"feature.node.kubernetes.io/cpu-cpuid.AVX2", "true", "CUSTOM_CPU_CPUID_AVX2"},
		{"feature.node.kubernetes.io/kernel-loadedmodule.vfio", "", "CUSTOM_KERNEL_LOADEDMODULE_VFIO"},
		{"feature.node.kubernetes.io/cpu-model.vendor_id", "Intel", "CUSTOM_CPU_MODEL_VENDOR_ID_INTEL"},
		{"feature.node.kubernetes.io/kernel-version.full", "6.8.0-45-generic", "CUSTOM_KERNEL_VERSION_FULL_6_8_0_45_GENERIC"},
		{"vendor.io/accelerated", "false", "CUSTOM_VENDOR_IO_ACCELERATED_FALSE"},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			got, err := TraitName(tt.key, tt.value)
			if err != nil || got != tt.want {
				t.Errorf("TraitName(%q, %q) = %q, %v; want %q", tt.key, tt.value, got, err, tt.want)
			}
		})
	}
}

func TestCheckCustomNameFollowsNovaAndPlacement(t *testing.T) {
	tests := []struct {
		name, input, wantErr string
	}{
		{name: "custom-ok", input: "CUSTOM_LLC"},
		{name: "digits-and-underscores-ok", input: "CUSTOM_P_STATE_2"},
		{name: "standard-class-refused", input: "VCPU", wantErr: "only CUSTOM_*"},
		{name: "standard-trait-refused", input: "HW_CPU_X86_AVX2", wantErr: "only CUSTOM_*"},
		{name: "lower-case-refused", input: "CUSTOM_llc", wantErr: "upper-case letters"},
		{name: "dash-refused", input: "CUSTOM_A-B", wantErr: "upper-case letters"},
		{name: "bare-prefix-refused", input: "CUSTOM_", wantErr: "upper-case letters"},
		{name: "too-long-refused", input: "CUSTOM_" + strings.Repeat("X", 249), wantErr: "256 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckCustomName(tt.input)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("CheckCustomName(%q) = %v, want nil", tt.input, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("CheckCustomName(%q) = %v, want an error containing %q", tt.input, err, tt.wantErr)
			}
		})
	}
}

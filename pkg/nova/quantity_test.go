package nova

import (
	"strings"
	"testing"
)

func TestTotalTakesWholeQuantitiesWithinPlacementLimits(t *testing.T) {
	tests := []struct {
		quantity string
		want     int64
		wantErr  string
	}{
		{quantity: "4", want: 4},
		{quantity: "0", want: 0},
		{quantity: "2k", want: 2000},
		{quantity: "1Ki", want: 1024},
		{quantity: "3e3", want: 3000},
		{quantity: "2147483647", want: 2147483647},
		{quantity: "2147483648", wantErr: "above 2147483647"},
		{quantity: "3G", wantErr: "above 2147483647"},
		{quantity: "1e30", wantErr: "above 2147483647"},
		{quantity: "1.5", wantErr: "not a whole number"},
		{quantity: "500m", wantErr: "not a whole number"},
		{quantity: "-1", wantErr: "negative"},
		{quantity: "-1e30", wantErr: "negative"},
		{quantity: "four", wantErr: "not a resource quantity"},
	}
	for _, tt := range tests {
		t.Run(tt.quantity, func(t *testing.T) {
			got, err := Total(tt.quantity)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Total(%q) = %d, %v; want an error containing %q", tt.quantity, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Total(%q) = %d, %v; want %d", tt.quantity, got, err, tt.want)
			}
		})
	}
}

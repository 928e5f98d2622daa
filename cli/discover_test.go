package cli

import (
	"strings"
	"testing"
)

func TestFoldDMIKeepsOtherWarningsAndLoneEntries(t *testing.T) {
	in := []string{
		"kernel: loadedmodule: missing",
		`system: failed to get DMI entry bios_date: reading "/r/id/bios_date": open: no such file or directory`,
		`system: failed to get DMI entry sys_vendor: reading "/r/id/sys_vendor": open: no such file or directory`,
		`system: failed to get DMI entry product_name: reading "/r/id/product_name": permission denied`,
		"usb: missing",
	}
	want := []string{
		"kernel: loadedmodule: missing",
		`system: failed to get 2 DMI entries (bios_date, sys_vendor): reading "/r/id/*": open: no such file or directory`,
		`system: failed to get DMI entry product_name: reading "/r/id/product_name": permission denied`,
		"usb: missing",
	}
	if got := foldDMI(in); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

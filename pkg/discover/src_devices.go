package discover

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// discoverNetwork is the network source of nfd-worker v0.19
// (source/network/network.go): every entry of sys/class/net under the host
// root but bonding_masters (a regular file such as a README too, with only
// its name), split into network.device (those whose device link resolves)
// and network.virtual, with operstate, speed and (from v0.18) mtu (and the
// SR-IOV counts of a device). A missing sys/class/net drops both features.
func discoverNetwork(e *env, c *collector) {
	const base = "sys/class/net"
	ifaces, err := e.host.names(base)
	if err != nil {
		c.warn("failed to list network interfaces: %v", err)
		return
	}
	var devs, virts []map[string]string
	for _, name := range ifaces {
		if name == "bonding_masters" {
			continue
		}
		dir := base + "/" + name
		if _, err := e.host.stat(dir + "/device"); err == nil {
			devs = append(devs, readAttrFiles(e.host, dir, name, e.rel.netAttrFiles(true), c))
		} else {
			virts = append(virts, readAttrFiles(e.host, dir, name, e.rel.netAttrFiles(false), c))
		}
	}
	c.instances("device", devs)
	c.instances("virtual", virts)
}

// readAttrFiles reads files below dir into attributes named after their base
// name, plus "name". Missing files (and EINVAL, as from the speed of a down
// link) are skipped silently, other errors with a warning.
func readAttrFiles(h host, dir, name string, files []string, c *collector) map[string]string {
	attrs := map[string]string{"name": name}
	for _, f := range files {
		v, err := h.readTrim(dir + "/" + f)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.EINVAL) {
				c.warn("%v", err)
			}
			continue
		}
		attrs[f[strings.LastIndex(f, "/")+1:]] = v
	}
	return attrs
}

// pciMandatoryAttrs lists the PCI attribute files every device must have.
func pciMandatoryAttrs() []string {
	return []string{"class", "vendor", "device", "subsystem_vendor", "subsystem_device"}
}

// pciOptionalAttrs lists the PCI attribute files read where present.
func pciOptionalAttrs() []string {
	return []string{"sriov_totalvfs", "iommu_group/type", "iommu/intel-iommu/version"}
}

// discoverPCI is the pci source of nfd-worker v0.19 (source/pci/utils.go): every device of sys/bus/pci/devices under
// the host root, with its class (first four hex digits), vendor, device and
// subsystem ids, and sriov_totalvfs, iommu_group/type and
// iommu/intel-iommu/version where present. A device missing a mandatory
// file is skipped with a warning.
func discoverPCI(e *env, c *collector) {
	const base = "sys/bus/pci/devices"
	devs, err := e.host.names(base)
	if err != nil {
		c.warn("failed to detect PCI devices: %v", err)
		return
	}
	var out []map[string]string
	for _, d := range devs {
		attrs, err := readPCIDevice(e.host, base+"/"+d)
		if err != nil {
			c.warn("failed to read PCI device %s: %v", d, err)
			continue
		}
		out = append(out, attrs)
	}
	c.instances("device", out)
}

// readPCIDevice reads the attributes of one PCI device directory.
func readPCIDevice(h host, dir string) (map[string]string, error) {
	attrs := map[string]string{}
	for _, a := range pciMandatoryAttrs() {
		raw, err := h.readFile(dir + "/" + a)
		if err != nil {
			return nil, err
		}
		attrs[a] = pciAttrValue(a, string(raw))
	}
	for _, a := range pciOptionalAttrs() {
		if raw, err := h.readFile(dir + "/" + a); err == nil {
			attrs[a] = pciAttrValue(a, string(raw))
		}
	}
	return attrs, nil
}

// pciAttrValue trims a sysfs PCI attribute, drops "0x" and cuts the class
// code to class and subclass (four digits).
func pciAttrValue(name, raw string) string {
	v := strings.TrimSpace(strings.TrimPrefix(raw, "0x"))
	if name == "class" && len(v) > 4 {
		v = v[:4]
	}
	return v
}

// discoverUSB is the usb source of nfd-worker v0.19 (source/usb/utils.go),
// in filepath.Glob's order: every sys/bus/usb/devices/*/idProduct
// device under the host root with class, vendor, device and serial. A
// device of class 00 gives one instance per interface, classed by the
// interface's bInterfaceClass. usb.device is always emitted.
func discoverUSB(e *env, c *collector) {
	paths, err := e.host.glob("sys/bus/usb/devices/*/idProduct")
	if err != nil {
		c.warn("failed to detect USB devices: %v", err)
		return
	}
	var out []map[string]string
	for _, p := range paths {
		devs, err := readUSBDevice(e.host, p[:strings.LastIndex(p, "/")])
		if err != nil {
			c.warn("failed to read USB device info: %v", err)
			continue
		}
		out = append(out, devs...)
	}
	c.instances("device", out)
}

// readUSBDevice returns the instances of one USB device directory.
func readUSBDevice(h host, dir string) ([]map[string]string, error) {
	attrs := map[string]string{}
	for attr, file := range map[string]string{"class": "bDeviceClass", "vendor": "idVendor", "device": "idProduct", "serial": "serial"} {
		if v, _ := h.readTrim(dir + "/" + file); v != "" {
			attrs[attr] = v
		}
	}
	if attrs["class"] != "00" {
		return []map[string]string{attrs}, nil
	}
	ifaces, err := h.glob(dir + "/*/bInterfaceClass")
	if err != nil {
		return nil, err
	}
	var classes []string
	for _, f := range ifaces {
		cls, err := h.readTrim(f)
		if err != nil {
			return nil, err
		}
		classes = append(classes, cls)
	}
	return usbInterfaceInstances(attrs, classes), nil
}

// usbInterfaceInstances copies a class-00 device's attributes once per
// interface, with the interface's class.
func usbInterfaceInstances(dev map[string]string, classes []string) []map[string]string {
	out := make([]map[string]string, 0, len(classes))
	for _, cls := range classes {
		m := make(map[string]string, len(dev))
		for k, v := range dev {
			m[k] = v
		}
		m["class"] = cls
		out = append(out, m)
	}
	return out
}

// discoverStorage is the storage source of nfd-worker v0.19
// (source/storage/storage.go): every sys/block device under the
// host root with the dax, rotational, nr_zones and zoned queue attributes
// that are readable.
func discoverStorage(e *env, c *collector) {
	devs, err := e.host.names("sys/block")
	if err != nil {
		c.warn("failed to detect block devices: %v", err)
		return
	}
	out := make([]map[string]string, 0, len(devs))
	for _, d := range devs {
		attrs := map[string]string{"name": d}
		for _, a := range []string{"dax", "rotational", "nr_zones", "zoned"} {
			if v, err := e.host.readTrim("sys/block/" + d + "/queue/" + a); err == nil {
				attrs[a] = v
			}
		}
		out = append(out, attrs)
	}
	c.instances("block", out)
}

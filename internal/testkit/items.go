package testkit

import "strings"

// NFDWorkload is a Deployment or DaemonSet named name in namespace
// node-feature-discovery running one NFD container image, as a cluster
// export holds nfd-master and nfd-worker.
func NFDWorkload(kind, name, image string) string {
	return "apiVersion: apps/v1\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n  namespace: node-feature-discovery\n" +
		"spec:\n  template:\n    spec:\n      containers:\n      - name: " + name + "\n        image: " + image + "\n"
}

// Item makes an object written with block-style metadata an item of a
// ResourceList's items; path, when set, is kpt's path annotation (added
// to an annotations flow mapping the object has, else as one).
func Item(obj, path string) string {
	switch {
	case path == "":
	case strings.Contains(obj, "\n  annotations: {"):
		obj = strings.Replace(obj, "\n  annotations: {", "\n  annotations: {config.kubernetes.io/path: '"+path+"', ", 1)
	default:
		obj = strings.Replace(obj, "metadata:\n", "metadata:\n  annotations: {config.kubernetes.io/path: '"+path+"'}\n", 1)
	}
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimRight(obj, "\n"), "\n") {
		prefix := "  "
		if i == 0 {
			prefix = "- "
		}
		b.WriteString(prefix + line + "\n")
	}
	return b.String()
}

package inputs_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// workerConfigMap is the ConfigMap NFD's Helm chart renders for
// nfd-worker, with conf as its nfd-worker.conf.
func workerConfigMap(name, conf string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: node-feature-discovery\ndata:\n  nfd-worker.conf: |\n    " +
		strings.ReplaceAll(strings.TrimSuffix(conf, "\n"), "\n", "\n    ") + "\n"
}

// TestReaderFindsTheWorkerConfigMapAsRenderDoes: the reader finds the
// nfd-worker configuration among the files it reads (Reader.WorkerConfig)
// as the KRM function finds it among its items: the first ConfigMap with
// data["nfd-worker.conf"] in the order of the files and their documents,
// whether the file mentions NFD or not (validate reads only those that
// do), a ResourceList file's among them; the ones before it that cannot
// be read are errors about them.
func TestReaderFindsTheWorkerConfigMapAsRenderDoes(t *testing.T) {
	const rule = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: usb\nspec:\n  rules: []\n"
	good := workerConfigMap("nfd-worker-conf", "core:\n  noPublishFeatures: [usb.device]\n")
	bad := workerConfigMap("broken-conf", "core: [\n")
	chart := "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: nfd-worker}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: nfd-master-conf}\ndata:\n  nfd-master.conf: \"{}\"\n---\n" + good
	list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(workerConfigMap("in-a-list", "core: {}\n"), "\n"), "\n", "\n  ") + "\n"
	tests := []struct {
		name    string
		files   map[string]string
		onlyNFD bool
		want    string // the ConfigMap used, "" for none
		unread  []string
	}{
		{name: "helm-chart-output-beside-rules", files: map[string]string{"chart.yaml": chart, "rules.yaml": rule}, onlyNFD: true, want: "nfd-worker-conf"},
		{name: "none", files: map[string]string{"rules.yaml": rule, "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n"}, onlyNFD: true},
		{name: "one-that-cannot-be-read-before-the-first-good", files: map[string]string{"a.yaml": bad, "b.yaml": good, "c.yaml": bad}, want: "nfd-worker-conf",
			unread: []string{`a.yaml:1:1: error: ConfigMap/broken-conf data[nfd-worker.conf]: ConfigMap broken-conf data["nfd-worker.conf"] is not YAML`}},
		{name: "one-that-cannot-be-read-at-its-line", files: map[string]string{"a.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n---\n" + bad},
			unread: []string{`a.yaml:5:1: error: ConfigMap/broken-conf data[nfd-worker.conf]: `}},
		{name: "a-list-file-in-its-place-among-the-files", files: map[string]string{"a.yaml": good, "z-list.yaml": list}, onlyNFD: true, want: "nfd-worker-conf"},
		{name: "a-list-file-first", files: map[string]string{"a-list.yaml": list, "z.yaml": good}, want: "in-a-list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			testkit.WriteFiles(t, ".", tt.files)
			r := inputs.NewReader(&objects.Set{OnlyNFDFiles: tt.onlyNFD})
			defer r.Close()
			if _, _, err := r.Read([]string{"."}, false); err != nil {
				t.Fatal(err)
			}
			wc, unread := r.WorkerConfig()
			got := ""
			if wc != nil {
				got = wc.Object.Name
			}
			var texts []string
			for _, d := range unread {
				texts = append(texts, d.Text())
			}
			if got != tt.want || !cmp.Equal(testkit.CutTo(texts, tt.unread), tt.unread) {
				t.Errorf("worker ConfigMap %q, want %q; unread %q, want them to start %q", got, tt.want, texts, tt.unread)
			}
		})
	}
}

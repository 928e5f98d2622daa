// Package doctest runs the commands the documentation shows. Its tests
// read every fenced shell block (sh, shell, bash) of README.md, docs/*.md
// and examples/*/README.md, check that each command is one they know how
// to run, and run each block verbatim with bash, so that a page cannot
// show a command that does not work, and a new kind of command cannot
// slip past them unrun.
//
// Each block runs in a scratch copy of the repository (the files git
// tracks, plus new ones it does not ignore), from its root, with:
//
//   - nfd-fn built once for the test binary (testkit.Binary) and on PATH,
//     and GOBIN pointing at the same directory, so `go install .` works
//     verbatim and installs there;
//   - the Go build environment of testkit.BuildEnv (static, -trimpath),
//     so that `go run .`, `go build` and `go install` in each page's copy
//     of the repository reuse the packages compiled for testkit.Binary
//     instead of compiling the module again per page (a directory of its
//     own would otherwise be part of every cache key);
//   - HOME and TMPDIR in the scratch directory, so `mktemp -d`, kpt's
//     caches and everything else a block writes is removed afterwards;
//   - git told (url.insteadOf) to fetch https://github.com/nfd-fn/nfd-fn
//     from a local repository made of the same files (but testdata/, which
//     no page fetches), branch main and the release tag, so `kpt pkg get`
//     runs without a network;
//   - stubs first on PATH for what needs a cluster, a container engine or
//     would recurse into this test:
//     kubectl: `get ... -o yaml` of nodes and nodefeatures prints
//     testdata/cluster-export/snapshot.yaml; `apply` checks the
//     server-side apply flags documented (--server-side,
//     --field-manager=nfd-fn, -f FILE, optionally --subresource=status)
//     and that FILE holds only Nodes;
//     docker: `version`, and `run` of ghcr.io/nfd-fn/nfd-fn:<release>,
//     which runs the nfd-fn binary instead of the image (what kpt fn eval
//     --image and kustomize's container functions call);
//     go: `go test` lists the tests and benchmarks it would run
//     (`go test -list`) instead of running them, and a `./...` pattern is
//     only resolved (`go list`): that command is the suite this test is
//     part of; every other go command runs as it is;
//     make: dry-run (`make -n`): the target exists and its recipe expands.
//
// kpt and kustomize are the real tools. A block that needs one that is
// not installed is skipped, unless NFD_FN_E2E=1 (as .ci/run sets), which
// makes that a failure; hack/install-e2e-tools.sh installs kustomize.
//
// A comment on the line before a block changes how it runs:
//
//	<!-- doctest: dir=testdata/cluster-export exit=1 -->
//
// dir: the directory of the repository copy the block starts in; exit:
// the exit code the block must end with (blocks run under set -e and
// pipefail, so the failing command is the last one run). Blocks in other
// languages (yaml, json, text) are not commands; a block without a
// language is an error, so that commands cannot hide in one. console
// blocks are transcripts ("$ go run . ARGS" and the output), which
// cli/readme_test.go runs and compares.
//
// The package also keeps the kpt function catalog's conventions:
// metadata.yaml holds only the catalog schema's fields and lists every
// example, and every example's README fetches it with kpt pkg get, runs it
// with kpt fn eval --image and --exec, says how kustomize runs it, and
// shows the command e2e runs.
package doctest

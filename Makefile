# nfd-fn build, test and benchmark targets.
SHARED ?= ../shared
BIN    ?= bin
FLEET  ?= $(BIN)/fleet-1000.yaml

# The version built into nfd-fn (nfd-fn --version, the nfd-fn.dev/version
# annotation) and the image tag.
VERSION ?= $(shell git describe --tags --dirty --match "v[0-9]*" 2>/dev/null || echo v0.1.0-dev)
LDFLAGS := -X github.com/nfd-fn/nfd-fn/pkg/version.Version=$(VERSION)
IMAGE_ARCHIVE ?= $(BIN)/nfd-fn-image.tar

.PHONY: all build test vet conformance conformance-versions bench bench-go bench-fleet bench-hostile clean image e2e e2e-controlplane fuzz release-snapshot

all: vet test build

build:
	go build -ldflags "$(LDFLAGS)" -o nfd-fn .

# The test command the README and .ci/run use.
test:
	go test ./...

vet:
	go vet ./...

# need-shared stops a target that needs the shared corpus and tools
# (../shared beside the checkout, or SHARED=...) with a clear message.
need-shared = @test -d $(SHARED)/tools || { echo "make $(or $(MAKECMDGOALS),$@): needs the shared corpus and tools at $(SHARED) to make $@ (set SHARED=DIR); the project's own tests do not (go test ./...)" >&2; exit 2; }

# Runs the shared conformance checker against a fresh build: the random
# cases and the wild (vendor rule files) cases.
conformance: build
	$(need-shared)
	cd $(SHARED)/tools && go run ./conformance -bin $(CURDIR)/nfd-fn -cases ../conformance/cases
	cd $(SHARED)/tools && go run ./conformance -bin $(CURDIR)/nfd-fn -cases ../conformance/wild

# Scores the per-release version cases (../shared/conformance/versions)
# with nfdVersion set to each release, one line per release.
conformance-versions: build
	$(need-shared)
	bash hack/conformance-versions.sh $(CURDIR)/nfd-fn $(SHARED)/conformance/versions $(SHARED)/tools

# Speed and memory: Go benchmarks plus the whole-process fleet milestone
# and the hostile corpus's memory limits.
bench: bench-go bench-fleet bench-hostile

bench-go: $(FLEET)
	NFD_FN_FLEET=$(CURDIR)/$(FLEET) go test -run '^$$' -bench . -benchmem ./...

$(BIN)/fleet-%.yaml:
	$(need-shared)
	mkdir -p $(BIN)
	cd $(SHARED)/tools && go run ./fleetgen -nodes $* -seed 1 -rules ../nfd-data/samples > $(CURDIR)/$@

# Issue 16's benchmark: nfd-fn's wall, CPU and peak RSS against a bare
# yaml.v3 parse of the 1,000-node fleet, in turn, medians of BENCH_RUNS;
# the same for the fleet as a kubectl export with Node objects (issue 14),
# on stdin and as a file argument, in YAML and in JSON (each against the
# parse of its own file), and for the fleet as a package directory;
# nfd-fn's peak RSS with stdin a pipe, and at 200, 1,000 and 5,000 nodes
# from stdin and as packages.
# Exits 1 when a target is missed.
BENCH_RUNS ?= 3
bench-fleet: $(FLEET) $(BIN)/fleet-200.yaml $(BIN)/fleet-5000.yaml $(BIN)/export-1000.yaml $(BIN)/export-1000.json $(BIN)/pkg-200 $(BIN)/pkg-1000 $(BIN)/pkg-5000
	go build -o $(BIN)/nfd-fn .
	go -C tools build -o $(CURDIR)/$(BIN)/yamlbaseline ./yamlbaseline
	go -C tools build -o $(CURDIR)/$(BIN)/benchfleet ./benchfleet
	$(BIN)/benchfleet -runs $(BENCH_RUNS) -input $(FLEET) -fn $(BIN)/nfd-fn -baseline $(BIN)/yamlbaseline \
		-scale 200=$(BIN)/fleet-200.yaml,1000=$(FLEET),5000=$(BIN)/fleet-5000.yaml -export $(BIN)/export-1000.yaml -json-export $(BIN)/export-1000.json \
		-packages 200=$(BIN)/pkg-200,1000=$(BIN)/pkg-1000,5000=$(BIN)/pkg-5000

# Issue 34's memory limits on the old hostile corpus, peak RSS as
# /usr/bin/time -v reports it: a static error on 60,000 NodeFeatures
# within 20x the input, 40,000 broken rules within 1 GiB, for validate
# and render. Exits 1 when a limit is missed.
bench-hostile:
	go build -o $(BIN)/nfd-fn .
	go -C tools build -o $(CURDIR)/$(BIN)/benchhostile ./benchhostile
	$(BIN)/benchhostile -runs $(BENCH_RUNS) -fn $(BIN)/nfd-fn

# A fleet as a kpt package, one file per object: files mode's input.
$(BIN)/pkg-%: $(BIN)/fleet-%.yaml
	rm -rf $@ $@.tmp
	go -C tools run ./pkggen -out $(CURDIR)/$@.tmp < $<
	mv $@.tmp $@

# The 1,000-node fleet as kubectl exports it, with a Node object per node.
$(BIN)/export-1000.yaml: $(FLEET)
	go -C tools run ./exportgen < $(FLEET) > $@

# The same export as kubectl get -o json prints it.
$(BIN)/export-1000.json: $(BIN)/export-1000.yaml
	go -C tools run ./jsonexport < $< > $@.tmp
	mv $@.tmp $@

# Fuzz targets, FUZZTIME each (one -fuzz target at a time, each package's
# instrumented test binary built once and every target of it run from
# that binary), or N times FUZZTIME for a target written PKG:Target@N; every target runs
# even when one fails, then the run fails and says how many executions
# each target reached (hack/fuzz.sh; it says, and does not fail, Go
# 1.26's own race at the end of -fuzztime, go.dev/issue/75804, which
# failed FuzzFastDecode at load 35 with no input). Crashers land in the
# package's testdata/fuzz and become regression tests. FuzzValidateFiles runs the
# whole command twice per input (10 ms quiet, 30 ms at load 40) and its
# 90 seeds' baseline takes 2 to 14 s of its time: 95 executions in 20 s
# at load 25, so it gets four shares.
# FUZZMINIMIZETIME bounds the minimisation of each new interesting input
# in executions, not seconds, so that it costs the same on a loaded
# machine (go's default, 60s, stalls the run on large seeds; 5s left
# FuzzValidateFiles at 0 to 1 executions a second while minimising).
FUZZTIME ?= 1m
FUZZMINIMIZETIME ?= 100x
FUZZ_TARGETS := ./internal/krm:FuzzReadResourceList ./internal/krm:FuzzSplitter ./internal/krm:FuzzCutFile ./internal/krm:FuzzSyncMapText ./internal/krm:FuzzJSONList ./internal/krm:FuzzJSONFileEntry ./internal/krm:FuzzSyncMapJSON ./internal/fastread:FuzzFastDecode ./internal/fastread:FuzzFastDecodeJSON \
	./internal/inputs:FuzzReader ./cli:FuzzValidateFiles@4 ./pkg/engine:FuzzTemplate ./pkg/discover:FuzzWorkerConfigDecodesAsNfdWorkerDecodes

fuzz:
	FUZZTIME=$(FUZZTIME) FUZZMINIMIZETIME=$(FUZZMINIMIZETIME) bash hack/fuzz.sh $(FUZZ_TARGETS)

# The container image as an OCI archive, built offline with umoci (no
# Docker engine): one index named ghcr.io/nfd-fn/nfd-fn:$(VERSION) with a
# linux/amd64 and a linux/arm64 image, static nfd-fn, user 65534:65534.
# Load it with `podman load -i $(IMAGE_ARCHIVE)` or `skopeo copy --all oci-archive:...`.
image:
	bash hack/image.sh $(IMAGE_ARCHIVE) $(VERSION)

# Every example under the real kpt and kustomize, twice, and the image and
# container tests; installs kustomize, umoci, podman and runc first
# (hack/install-e2e-tools.sh).
e2e:
	PATH="$$(bash hack/install-e2e-tools.sh):$$PATH" NFD_FN_E2E=1 go test -count=1 ./e2e

# The control-plane tests (issue 39): tools/controlplane builds etcd,
# kube-apiserver and kubectl from the Go module proxy once into
# $XDG_CACHE_HOME/nfd-fn/controlplane/<versions>/ (~/.cache without it),
# then its tests start them on 127.0.0.1 and check admission per release,
# render's apply output under server-side apply and a takeover from
# nfd-master against the real server.
e2e-controlplane:
	go -C tools run ./controlplane
	go -C tools test -count=1 -timeout 40m ./controlplane/

# The release (docs/releasing.md): `goreleaser release --snapshot --clean`
# offline into dist/ (archives, checksums.txt, SBOMs, krew manifest,
# Homebrew cask), signed with a throwaway key when cosign is there, then
# checked by tools/distcheck. Installs goreleaser and cyclonedx-gomod
# first (hack/install-release-tools.sh, cached between runs).
release-snapshot:
	PATH="$$(bash hack/install-release-tools.sh):$$PATH" bash hack/release-snapshot.sh

clean:
	rm -rf $(BIN) nfd-fn dist

# nfd-fn build, test and benchmark targets.
SHARED ?= ../shared
BIN    ?= bin
FLEET  ?= $(BIN)/fleet-1000.yaml

.PHONY: all build test vet conformance bench bench-go bench-fleet clean

all: vet test build

build:
	go build -o nfd-fn .

# The test command the README and .ci/run use.
test:
	go test ./...

vet:
	go vet ./...

# Runs the shared conformance checker against a fresh build.
conformance: build
	cd $(SHARED)/tools && go run ./conformance -bin $(CURDIR)/nfd-fn -cases ../conformance/cases

# Speed and memory: Go benchmarks plus the whole-process fleet milestone.
bench: bench-go bench-fleet

bench-go:
	go test -run '^$$' -bench . -benchmem ./...

$(FLEET):
	mkdir -p $(BIN)
	cd $(SHARED)/tools && go run ./fleetgen -nodes 1000 -seed 1 -rules ../nfd-data/samples > $(CURDIR)/$(FLEET)

bench-fleet: $(FLEET)
	mkdir -p $(BIN)
	go build -o $(BIN)/nfd-fn .
	go build -o $(BIN)/yamlbaseline ./internal/yamlbaseline
	go run ./internal/benchfleet -input $(FLEET) -fn $(BIN)/nfd-fn -baseline $(BIN)/yamlbaseline

clean:
	rm -rf $(BIN) nfd-fn

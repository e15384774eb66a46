#!/usr/bin/env bash
# Runs every check and test of the project, on a fresh machine too: the go
# command fetches the modules the tests need (the official Go SDK client
# among them) by itself, and npm installs the official TypeScript SDK
# client the end-to-end tests drive and the official conformance suite
# (with the Node 22 it needs) that examples/everything runs.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${MCPGEN_SCHEMA_DIR:-}" ] && [ ! -d ../shared/mcp-schema ]; then
	echo "note: no MCP JSON Schemas in ../shared/mcp-schema and MCPGEN_SCHEMA_DIR is not set: the tests that validate messages against them are skipped"
fi

echo "== gofmt"
unformatted=$(gofmt -l $(find . -name '*.go' -not -path './.git/*' -not -path '*/node_modules/*'))
if [ -n "$unformatted" ]; then
	echo "not gofmt-clean:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== generated code and reference in sync with the annotations (mcpgen -check, mcpgen docs -check)"
go run ./cmd/mcpgen -check ./examples/... ./internal/fuzzdecode
go run ./cmd/mcpgen docs -check -o examples/files/README.md ./examples/files

echo "== npm install: the official TypeScript SDK client for the end-to-end tests"
(cd examples/files/testdata/tsclient && npm install --no-audit --no-fund --no-package-lock --loglevel=error)

echo "== npm install: the official conformance suite and Node 22 for examples/everything"
(cd examples/everything/testdata/conformance && npm install --no-audit --no-fund --no-package-lock --loglevel=error)

echo "== go test -race (the command's script tests without -race: they exec mcpgen and the go command, which the race detector only slows)"
go test -race -count=1 -timeout 30m $(go list ./... | grep -v '/cmd/mcpgen$')
go test -count=1 -timeout 30m ./cmd/mcpgen

echo "== fuzz: a bounded number of new inputs per target (go test runs the seeds in testdata/fuzz)"
# A count rather than a time: the run costs the same on any machine, and
# a time limit can end a run with a spurious "context deadline exceeded".
go test -run '^$' -fuzz '^FuzzHTTPHandler$' -fuzztime 200x ./runtime/mcphttp
go test -run '^$' -fuzz '^FuzzDecodeKinds$' -fuzztime 5000x ./internal/fuzzdecode

echo "== bench module"
(cd bench && go vet ./... && go run ../cmd/mcpgen -check ./servers/mcpgen && go test -count=1 ./...)

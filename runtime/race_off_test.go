//go:build !race

package runtime_test

// raceBuild says the race detector is on: it enlarges allocations.
const raceBuild = false

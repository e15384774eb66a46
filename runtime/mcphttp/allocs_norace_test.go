//go:build !race

package mcphttp_test

// allocsCounted says whether allocations can be counted: the race
// detector allocates on its own.
const allocsCounted = true

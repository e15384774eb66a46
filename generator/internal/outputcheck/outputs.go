// Package outputcheck is a server whose tools return the output types of
// package schematypes, so that tests can hold the generated encoders to the
// published output schemas: each tool returns the value a test put in next.
//
//go:generate go run ../../../cmd/mcpgen
package outputcheck

import (
	"context"

	"github.com/mcpgen/mcpgen/generator/internal/schematypes"
)

// Next is the value the next tool call returns; a test sets it.
var Next any

// Scalars returns Next.
//
//mcp:tool
func Scalars(context.Context) (schematypes.Scalars, error) { return Next.(schematypes.Scalars), nil }

// Scalars2 returns Next.
//
//mcp:tool
func Scalars2(context.Context) (schematypes.Scalars2, error) { return Next.(schematypes.Scalars2), nil }

// Optional returns Next.
//
//mcp:tool
func Optional(context.Context) (schematypes.Optional, error) { return Next.(schematypes.Optional), nil }

// Nils returns Next.
//
//mcp:tool
func Nils(context.Context) (*schematypes.Nils, error) { return Next.(*schematypes.Nils), nil }

// Omits returns Next.
//
//mcp:tool
func Omits(context.Context) (schematypes.Omits, error) { return Next.(schematypes.Omits), nil }

// Meta returns Next.
//
//mcp:tool
func Meta(context.Context) (schematypes.Meta, error) { return Next.(schematypes.Meta), nil }

// Embedding returns Next.
//
//mcp:tool
func Embedding(context.Context) (schematypes.Embedding, error) {
	return Next.(schematypes.Embedding), nil
}

// Outer returns Next.
//
//mcp:tool
func Outer(context.Context) (schematypes.Outer, error) { return Next.(schematypes.Outer), nil }

// Conflicts returns Next.
//
//mcp:tool
func Conflicts(context.Context) (schematypes.Conflicts, error) {
	return Next.(schematypes.Conflicts), nil
}

// Diamond returns Next.
//
//mcp:tool
func Diamond(context.Context) (schematypes.Diamond, error) { return Next.(schematypes.Diamond), nil }

// Shadow returns Next.
//
//mcp:tool
func Shadow(context.Context) (schematypes.Shadow, error) { return Next.(schematypes.Shadow), nil }

// Forest returns Next.
//
//mcp:tool
func Forest(context.Context) (schematypes.Forest, error) { return Next.(schematypes.Forest), nil }

// Dept returns Next.
//
//mcp:tool
func Dept(context.Context) (schematypes.Dept, error) { return Next.(schematypes.Dept), nil }

// Chain returns Next.
//
//mcp:tool
func Chain(context.Context) (schematypes.Chain, error) { return Next.(schematypes.Chain), nil }

// Pages returns Next.
//
//mcp:tool
func Pages(context.Context) (schematypes.Pages, error) { return Next.(schematypes.Pages), nil }

// Marshaled returns Next.
//
//mcp:tool
func Marshaled(context.Context) (schematypes.Marshaled, error) {
	return Next.(schematypes.Marshaled), nil
}

// Trees returns Next, a slice, which the result wraps as {"items": […]}.
//
//mcp:tool
func Trees(context.Context) ([]schematypes.Tree, error) { return Next.([]schematypes.Tree), nil }

// PointMap returns Next, a map.
//
//mcp:tool
func PointMap(context.Context) (map[string]*schematypes.Point, error) {
	return Next.(map[string]*schematypes.Point), nil
}

// Persons returns Next, an array of pointers.
//
//mcp:tool
func Persons(context.Context) ([2]*schematypes.Person, error) {
	return Next.([2]*schematypes.Person), nil
}

// Quoted returns Next.
//
//mcp:tool
func Quoted(context.Context) (schematypes.OutQuoted, error) { return Next.(schematypes.OutQuoted), nil }

// Keys returns Next.
//
//mcp:tool
func Keys(context.Context) (schematypes.OutKeys, error) { return Next.(schematypes.OutKeys), nil }

// IntMap returns Next, a map with integer keys.
//
//mcp:tool
func IntMap(context.Context) (map[int64]string, error) { return Next.(map[int64]string), nil }

// Package ext declares types that the schema tests reach only through
// export data, so that their comments must be read from source on demand.
package ext

// Thing is a thing from another package.
type Thing struct {
	// Label names the thing.
	Label string `json:"label"`
	Size  Size   `json:"size"` // Size is measured in units.
}

// Size is a size class.
type Size string

// The sizes, declared out of alphabetical order.
const (
	Small  Size = "s"
	Large  Size = "l"
	Medium Size = "m"
)

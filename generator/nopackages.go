package generator

import (
	"fmt"
	"os/exec"
	"strings"
)

// noPackagesError explains why patterns, loaded in dir, matched no
// package. Outside any module the go command matches nothing and says
// nothing, so that case is told apart, with its fix.
func noPackagesError(dir string, patterns []string) error {
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if gomod := strings.TrimSpace(string(out)); err == nil && (gomod == "" || gomod == "/dev/null" || gomod == "NUL") {
		where := dir
		if where == "" {
			where = "the current directory"
		}
		return fmt.Errorf("%s is in no Go module (no go.mod in it or a parent): run go mod init MODULE-PATH, or mcpgen init for a new server", where)
	}
	return fmt.Errorf("no packages match %s (is the module's go.mod in order? try go mod tidy)", strings.Join(patterns, " "))
}

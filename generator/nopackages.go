package generator

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// folderHint is the fix for a pattern written as a folder's name, search
// for ./search, which the go command reads as a package of the standard
// library: it is not there (msg says so), and dir has a folder of that
// name.
func folderHint(dir, pkgPath, msg string) string {
	if !strings.Contains(msg, "is not in std") || strings.ContainsAny(pkgPath, ".") {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(pkgPath))); err != nil || !fi.IsDir() {
		return ""
	}
	return fmt.Sprintf(" (for the folder %s, write ./%s)", pkgPath, pkgPath)
}

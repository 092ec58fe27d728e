package vm

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNoParser keeps the parser out of programs that only run
// compiled algorithms: vm carries its own position type.
func TestImportsNoParser(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/anynt/anynt/") && dep != "github.com/anynt/anynt/vm" {
			t.Errorf("vm depends on %s", dep)
		}
	}
}

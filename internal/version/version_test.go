package version

import (
	"strings"
	"testing"
)

func TestStringStartsWithRelease(t *testing.T) {
	if s := String(); !strings.HasPrefix(s, Release) {
		t.Fatalf("String() = %q, want it to start with the release %q", s, Release)
	}
}

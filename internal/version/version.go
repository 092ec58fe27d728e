package version

import (
	"runtime/debug"
	"sync"
)

// Release is the release this tree belongs to.
const Release = "0.2.0-dev"

// String is the release followed, when the build recorded it, by the
// short VCS revision, for example "0.2.0-dev (4acfee6c1f2e)" or
// "0.2.0-dev (4acfee6c1f2e+dirty)". It is read once: the build information
// does not change while the program runs, and reading it decodes it anew.
func String() string { return read() }

var read = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Release
	}
	var revision string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if revision == "" {
		return Release
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if dirty {
		revision += "+dirty"
	}
	return Release + " (" + revision + ")"
})

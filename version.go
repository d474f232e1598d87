package lk

import (
	_ "embed"
	"runtime/debug"
	"strings"
)

//go:embed VERSION
var release string

// Release is the release this code is, or leads to when it is not tagged:
// the file VERSION, kept in the repository since tags do not travel with a
// copy of the code.
func Release() string { return strings.TrimSpace(release) }

// Version is what this build calls itself: what lk -version prints, the
// image's tag, the archives' names and the SBOM's.
func Version() string {
	info, _ := debug.ReadBuildInfo()
	return VersionOf(info)
}

// VersionOf is the version of a build with info: Release() only when it
// was built from the commit tagged v<Release> with nothing changed (Go
// stamps that tag into the binary as the main module's version); any other
// build is a pre-release of it that names its commit, such as
// 0.5.0-dev+3f2a9c1e07b4, with .dirty when files had changed, and plain
// 0.5.0-dev when no commit is known (a test binary, a copy without git).
// So a build between releases never passes for one.
func VersionOf(info *debug.BuildInfo) string {
	r := Release()
	if info == nil {
		return r + "-dev"
	}
	var commit string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if info.Main.Version == "v"+r && commit != "" && !dirty {
		return r
	}
	if commit == "" {
		return r + "-dev"
	}
	v := r + "-dev+" + commit[:min(12, len(commit))]
	if dirty {
		v += ".dirty"
	}
	return v
}

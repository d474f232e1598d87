package lk

import (
	"runtime/debug"
	"testing"
)

// A build is the release only from the commit tagged v<VERSION> with
// nothing changed; any other names itself a pre-release with its commit.
func TestVersionSaysWhenItIsNotARelease(t *testing.T) {
	r := Release()
	stamped := func(main string, settings ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "lk", Version: main}}
		for i := 0; i+1 < len(settings); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return info
	}
	const commit = "3f2a9c1e07b4d5e6f708192a3b4c5d6e7f809102"
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{stamped("v"+r, "vcs.revision", commit, "vcs.modified", "false"), r},
		{stamped("v"+r+"+dirty", "vcs.revision", commit, "vcs.modified", "true"), r + "-dev+3f2a9c1e07b4.dirty"},
		{stamped("v0.0.0-20261128120000-3f2a9c1e07b4", "vcs.revision", commit, "vcs.modified", "false"), r + "-dev+3f2a9c1e07b4"},
		{stamped("v0.4.0", "vcs.revision", commit, "vcs.modified", "false"), r + "-dev+3f2a9c1e07b4"}, // another release's tag
		{stamped("v" + r), r + "-dev"},   // a tag without its commit: not to be trusted
		{stamped("(devel)"), r + "-dev"}, // go test, or a copy without git
		{nil, r + "-dev"},
	} {
		if got := VersionOf(c.info); got != c.want {
			t.Errorf("VersionOf(%v): %q, want %q", c.info, got, c.want)
		}
	}
	if got := Version(); got != r+"-dev" {
		t.Errorf("a test binary's Version: %q, want %q", got, r+"-dev")
	}
}

package lk

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var version string

// Version is the release this code is (the file VERSION, kept in the
// repository since tags do not travel with a copy of the code): what
// lk -version prints, the image's tag and the archives' names.
func Version() string { return strings.TrimSpace(version) }

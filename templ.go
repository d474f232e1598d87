// Package lk is the root of the resort personal account: it holds the
// generate directives that build the generated code (the islands with Vite,
// the views with templ) and embeds the static assets into the binary.
package lk

import "embed"

//go:generate sh -c "cd islands && npm run --silent build"
//go:generate go tool templ generate -path views

// Static holds static/: css/, img/ and dist/ (Vite's output with its manifest).
//
//go:embed all:static
var Static embed.FS

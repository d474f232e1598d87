//go:build race

package web

// raceEnabled: the race detector makes sync.Pool drop items on purpose, so
// pooled memory cannot be measured.
const raceEnabled = true

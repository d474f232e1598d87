package web

import "testing"

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"gzip, deflate, br, zstd": true, // Chrome's
		"":                        false,
		"identity":                false,
		"br":                      false,
		"GZIP":                    true,
		"gzip;q=0":                false,
		"gzip; q=0.5":             true,
		"gzip;q=0.000":            false,
		"gzip;q=bad":              false,
		"*":                       true,
		"*;q=0":                   false,
		"gzip;q=0, *":             false, // gzip named refused: the star does not bring it back
		"*;q=0, gzip":             true,
		"x-gzip":                  false,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}

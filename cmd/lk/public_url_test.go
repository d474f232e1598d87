package main

import (
	"strings"
	"testing"
)

func TestPublicURL(t *testing.T) {
	for _, c := range []struct{ addr, raw, want string }{
		{":8080", "", "http://localhost:8080"},
		{"0.0.0.0:8080", "", "http://localhost:8080"},
		{"[::]:8080", "", "http://localhost:8080"},
		{"127.0.0.1:8081", "", "http://127.0.0.1:8081"},
		{":8080", "https://lk.example.ru/", "https://lk.example.ru"},
		{":8080", "https://lk.example.ru:8443", "https://lk.example.ru:8443"},
	} {
		cfg, err := loadConfig(env(map[string]string{"LK_ADDR": c.addr, "LK_PUBLIC_URL": c.raw}))
		if err != nil || cfg.PublicURL != c.want {
			t.Errorf("LK_ADDR=%q LK_PUBLIC_URL=%q: %q %v, want %q", c.addr, c.raw, cfg.PublicURL, err, c.want)
		}
	}
	for _, bad := range []string{"lk.example.ru", "ftp://lk.example.ru", "https://lk.example.ru/lk", "https://u:p@lk.example.ru", "https://lk.example.ru/?a=1", "https://"} {
		if _, err := loadConfig(env(map[string]string{"LK_PUBLIC_URL": bad})); err == nil || !strings.HasPrefix(err.Error(), "LK_PUBLIC_URL:") {
			t.Errorf("LK_PUBLIC_URL=%q: %v", bad, err)
		}
	}
}

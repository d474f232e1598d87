package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"lk/views"
)

// A misspelt variable stops the server before anything listens, naming it
// and the variable it was probably meant to be: LK_GATEWAY_URI would
// otherwise leave LK_GATEWAY_URL empty and run the demo data.
func TestUnknownVariableStopsTheServer(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	code, out, errOut := runMainEnv(t, data, []string{"LK_GATEWAY_URI=http://x"})
	if code == 0 || !strings.Contains(errOut, "LK_GATEWAY_URI") || !strings.Contains(errOut, "did you mean LK_GATEWAY_URL?") {
		t.Errorf("LK_GATEWAY_URI: exit %d, stderr %q; want non-zero naming LK_GATEWAY_URL", code, errOut)
	}
	if strings.Contains(out, "listening") {
		t.Errorf("it listened:\n%s", out)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("a refused configuration wrote the data folder: %v", err)
	}
	for name, want := range map[string]string{
		"LK_REDIS_ULR": "LK_REDIS_URL", "LK_COOKIE_KEY": "LK_COOKIE_KEYS", "LK_DEBUG": "LK_DEBUG_ADDR", "LK_LOGLEVEL": "LK_LOG_LEVEL",
	} {
		_, err := loadConfig(env(map[string]string{name: "x"}))
		if err == nil || !strings.HasPrefix(err.Error(), name+":") || !strings.Contains(err.Error(), "did you mean "+want+"?") {
			t.Errorf("%s: %v; want it named with %s", name, err, want)
		}
	}
	// Names are case-sensitive, so a name of the prefix in another case
	// would be passed over: it stops the start too, before the demo data.
	code, out, errOut = runMainEnv(t, data, []string{"lk_gateway_url=https://gw.example/v1"})
	if code == 0 || !strings.Contains(errOut, "lk_gateway_url: not a variable of lk (names are upper-case); did you mean LK_GATEWAY_URL?") {
		t.Errorf("lk_gateway_url: exit %d, stderr %q; want non-zero naming LK_GATEWAY_URL", code, errOut)
	}
	if strings.Contains(out, "listening") || strings.Contains(out, "sandbox") {
		t.Errorf("it started:\n%s", out)
	}
	for name, want := range map[string]string{"Lk_Addr": "LK_ADDR", "lk_test_now": "LK_TEST_NOW", "lk_gatway_url": "LK_GATEWAY_URL"} {
		_, err := loadConfig(env(map[string]string{name: "x"}))
		if err == nil || !strings.HasPrefix(err.Error(), name+":") || !strings.Contains(err.Error(), "did you mean "+want+"?") {
			t.Errorf("%s: %v; want it named with %s", name, err, want)
		}
	}
	// Names outside the prefix, and the repository tools' own, pass.
	if _, err := loadConfig(env(map[string]string{"HOME": "/root", "LK_TEST_NOW": "x", "LK_CHROMIUM": "/usr/bin/chromium"})); err != nil {
		t.Error(err)
	}
}

// Every LK_ name the repository's scripts, tests and documents use is one
// the server knows, or one of the tools' own that it passes over: else
// the browser tests, which pass their environment on, would stop it.
func TestEveryLKNameInTheRepositoryIsKnown(t *testing.T) {
	known := map[string]bool{}
	for _, v := range variables {
		known[v.name] = true
	}
	for _, n := range toolVariables {
		known[n] = true
	}
	name := regexp.MustCompile(`\bLK_[A-Z][A-Z0-9_]*[A-Z0-9]\b`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "dist", "tmp", "bin", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, "_test.go") && filepath.Dir(path) == filepath.Join(root, "cmd", "lk") {
			return nil // this package's tests name unknown variables on purpose
		}
		switch filepath.Ext(path) {
		case ".go", ".ts", ".md", ".yaml", ".yml", ".service", "":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || bytes.IndexByte(b, 0) >= 0 { // a binary
			return err
		}
		for _, n := range name.FindAllString(string(b), -1) {
			if !known[n] && n != "LK_GATEWAY_URI" { // the misspelling the documents show
				t.Errorf("%s names %s, which lk does not know", path, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The bundled sandbox runs when LK_GATEWAY_URL is empty or says sandbox,
// and then every page says the data is not real; the log warns too.
func TestSandboxModeSaysSoOnEveryPage(t *testing.T) {
	for _, gw := range []string{"", "sandbox"} {
		addrs, out, stop := started(t, map[string]string{
			"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(), "LK_GATEWAY_URL": gw,
		})
		for _, path := range []string{"/login", "/signup", "/no-such-page"} {
			res, err := http.Get(addrs["listening"] + path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if !strings.Contains(string(b), views.DemoNotice) {
				t.Errorf("LK_GATEWAY_URL=%q: %s does not say %q", gw, path, views.DemoNotice)
			}
		}
		stop()
		if !strings.Contains(out.String(), `"level":"WARN","msg":"running on the bundled sandbox gateway"`) {
			t.Errorf("LK_GATEWAY_URL=%q: no warning that the sandbox runs:\n%s", gw, out.String())
		}
	}
	c, err := loadConfig(env(map[string]string{"LK_GATEWAY_URL": "https://gw.example/v1"}))
	if err != nil || c.Sandbox != "" || c.GatewayURL != "https://gw.example/v1" {
		t.Errorf("a real gateway: %+v %v", c, err)
	}
}

// LK_REDIS_URL takes a Sentinel-managed master too; a malformed one names
// the variable.
func TestRedisURLTakesSentinels(t *testing.T) {
	if _, err := loadConfig(env(map[string]string{"LK_REDIS_URL": "redis-sentinel://10.0.0.1:26379,10.0.0.2:26379/0#lk"})); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"redis-sentinel://10.0.0.1:26379/0", "redis-sentinel://10.0.0.1/0#lk", "sentinel://x#lk"} {
		if _, err := loadConfig(env(map[string]string{"LK_REDIS_URL": bad})); err == nil || !strings.HasPrefix(err.Error(), "LK_REDIS_URL:") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

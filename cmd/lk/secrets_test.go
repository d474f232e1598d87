package main

import (
	"encoding/base64"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A second server on the same data folder stops, naming the folder and
// the process that holds it; the first one keeps serving.
func TestOneProcessPerDataFolder(t *testing.T) {
	data := t.TempDir()
	addrs, _, stop := started(t, map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": data})
	code, out, errOut := runMain(t, data)
	if code == 0 || !strings.Contains(errOut, "LK_DATA_DIR") || !strings.Contains(errOut, data) || !strings.Contains(errOut, "in use by another lk (process ") {
		t.Errorf("a second lk on %s: exit %d, stderr %q", data, code, errOut)
	}
	if strings.Contains(out, "listening") {
		t.Errorf("the second one listened:\n%s", out)
	}
	if got := status(t, addrs["listening"]+"/healthz"); got != http.StatusOK {
		t.Errorf("the first one: /healthz %d", got)
	}
	stop()
	// Once the first has stopped, the folder is free again.
	_, _, stop = started(t, map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": data})
	stop()
}

func key(b byte) string {
	k := make([]byte, 64)
	for i := range k {
		k[i] = b
	}
	return base64.StdEncoding.EncodeToString(k)
}

// The cookie keys can come from a file (a mounted secret), one per line or
// separated by commas, but not from both places at once.
func TestCookieKeysFromAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "keys")
	if err := os.WriteFile(file, []byte(key(1)+"\n"+key(2)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(env(map[string]string{"LK_COOKIE_KEYS_FILE": file}))
	if err != nil || len(c.CookieKeys) != 2 || c.CookieKeys[0].Hash[0] != 1 || c.CookieKeys[1].Hash[0] != 2 {
		t.Errorf("two keys from a file: %v %v", c.CookieKeys, err)
	}
	for name, vars := range map[string]map[string]string{
		"both":    {"LK_COOKIE_KEYS_FILE": file, "LK_COOKIE_KEYS": key(3)},
		"missing": {"LK_COOKIE_KEYS_FILE": filepath.Join(dir, "none")},
		"bad":     {"LK_COOKIE_KEYS_FILE": filepath.Join(dir, "bad")},
		"empty":   {"LK_COOKIE_KEYS_FILE": filepath.Join(dir, "empty")},
	} {
		_ = os.WriteFile(filepath.Join(dir, "bad"), []byte("c2VjcmV0LXZhbHVl\n"), 0o600)
		_ = os.WriteFile(filepath.Join(dir, "empty"), []byte("\n"), 0o600)
		_, err := loadConfig(env(vars))
		if err == nil || !strings.HasPrefix(err.Error(), "LK_COOKIE_KEYS_FILE:") || strings.Contains(err.Error(), "c2VjcmV0") {
			t.Errorf("%s: %v; want an error naming LK_COOKIE_KEYS_FILE without the file's content", name, err)
		}
	}
}

// With LK_DEBUG_TOKEN_FILE the debug listener answers only requests that
// carry the token, as a bearer token or as Basic auth's password.
func TestDebugListenerAsksForTheToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	const token = "0123456789abcdef-debug"
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addrs, _, stop := started(t, map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(),
		"LK_DEBUG_ADDR": "127.0.0.1:0", "LK_DEBUG_TOKEN_FILE": file})
	defer stop()
	get := func(url string, set func(*http.Request)) int {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		set(req)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, url := range []string{addrs["metrics"], addrs["profiling"] + "heap?debug=1"} {
		for name, c := range map[string]struct {
			set  func(*http.Request)
			want int
		}{
			"none":   {func(*http.Request) {}, 401},
			"wrong":  {func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, 401},
			"bearer": {func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }, 200},
			"basic":  {func(r *http.Request) { r.SetBasicAuth("prometheus", token) }, 200},
		} {
			if got := get(url, c.set); got != c.want {
				t.Errorf("%s with %s: %d, want %d", url, name, got, c.want)
			}
		}
	}
	if _, err := loadConfig(env(map[string]string{"LK_DEBUG_TOKEN_FILE": filepath.Join(t.TempDir(), "none")})); err == nil || !strings.HasPrefix(err.Error(), "LK_DEBUG_TOKEN_FILE:") {
		t.Errorf("a missing token file: %v", err)
	}
}

// -healthcheck asks a URL once: exit 0 on a 200 (the server's /healthz),
// 1 when nothing answers or the answer is another status, 2 for a URL that
// is none; it reads no configuration (a misspelt variable does not fail
// it) and writes no data folder.
func TestHealthcheckMode(t *testing.T) {
	addrs, _, stop := started(t, map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir()})
	data := filepath.Join(t.TempDir(), "data")
	for _, c := range []struct {
		url  string
		want int
	}{{addrs["listening"] + "/healthz", 0}, {addrs["listening"] + "/no-such", 1}, {"http://127.0.0.1:1/healthz", 1}, {"healthz", 2}} {
		if code, _, errOut := runMainEnv(t, data, []string{"LK_NOT_A_VARIABLE=1"}, "-healthcheck", c.url); code != c.want {
			t.Errorf("-healthcheck %s: exit %d (%s), want %d", c.url, code, errOut, c.want)
		}
	}
	// auto asks the /healthz of the server's own LK_ADDR, on loopback when
	// it listens on every interface: a port other than 8080 is followed.
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(addrs["listening"], "http://"))
	for _, c := range []struct {
		addr string
		want int
	}{{":" + port, 0}, {"0.0.0.0:" + port, 0}, {"127.0.0.1:" + port, 0}, {":1", 1}, {"8080", 1}} {
		if code, _, errOut := runMainEnv(t, data, []string{"LK_ADDR=" + c.addr}, "-healthcheck", "auto"); code != c.want {
			t.Errorf("LK_ADDR=%s -healthcheck auto: exit %d (%s), want %d", c.addr, code, errOut, c.want)
		}
	}
	stop()
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("-healthcheck wrote the data folder: %v", err)
	}
}

// LK_REDIS_PASSWORD_FILE gives the Redis data servers' password from a
// file, its line end dropped; it makes sense only with LK_REDIS_URL, and an
// error names the variable, never the password.
func TestRedisPasswordFromAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "redis-password")
	if err := os.WriteFile(file, []byte("s3cret pass\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(env(map[string]string{"LK_DATA_DIR": dir, "LK_REDIS_URL": "redis://127.0.0.1:6379/0", "LK_REDIS_PASSWORD_FILE": file}))
	if err != nil || c.RedisPassword != "s3cret pass" {
		t.Errorf("the password from a file: %q %v", c.RedisPassword, err)
	}
	_ = os.WriteFile(filepath.Join(dir, "empty"), []byte("\n"), 0o600)
	for name, vars := range map[string]map[string]string{
		"no Redis": {"LK_REDIS_PASSWORD_FILE": file},
		"missing":  {"LK_REDIS_URL": "redis://127.0.0.1:6379/0", "LK_REDIS_PASSWORD_FILE": filepath.Join(dir, "none")},
		"empty":    {"LK_REDIS_URL": "redis://127.0.0.1:6379/0", "LK_REDIS_PASSWORD_FILE": filepath.Join(dir, "empty")},
	} {
		vars["LK_DATA_DIR"] = dir
		_, err := loadConfig(env(vars))
		if err == nil || !strings.HasPrefix(err.Error(), "LK_REDIS_PASSWORD_FILE:") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: %v; want an error naming LK_REDIS_PASSWORD_FILE without the password", name, err)
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"lk"
)

// TestMain runs main itself when asked, so the tests below see the real
// exit codes of the binary.
func TestMain(m *testing.M) {
	if os.Getenv("LK_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runMain runs main with args and answers its exit code, stdout and stderr.
func runMain(t *testing.T, dataDir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runMainEnv(t, dataDir, nil, args...)
}

// runMainEnv is runMain with more variables (NAME=value) in its environment.
func runMainEnv(t *testing.T, dataDir string, vars []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "LK_TEST_MAIN=1", "LK_ADDR=127.0.0.1:0", "LK_SANDBOX_ADDR=127.0.0.1:0", "LK_DATA_DIR="+dataDir), vars...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errOut.String()
}

// The release is VERSION's, such as 0.5.0.
func TestVersionIsARelease(t *testing.T) {
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(lk.Release()) {
		t.Errorf("VERSION %q is no release such as 0.5.0", lk.Release())
	}
}

func TestVersionPrintsTheBuildAndExits(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	for _, arg := range []string{"-version", "--version"} {
		code, out, _ := runMain(t, data, arg)
		if code != 0 || !strings.HasPrefix(out, "lk "+lk.Version()+" ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%s: exit %d, %q; want 0 and the version with %s", arg, code, out, runtime.Version())
		}
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("-version wrote the data folder: %v", err)
	}
}

// An argument the server does not know stops it before it listens or
// touches the data folder, with the usage and exit code 2.
func TestUnknownArgumentsAreRefused(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	for _, args := range [][]string{{"--nonsense"}, {"-version=maybe"}, {"serve"}, {"-version", "extra"}} {
		code, out, errOut := runMain(t, data, args...)
		if code != 2 || !strings.Contains(errOut, "usage: lk") || !strings.Contains(errOut, "LK_ADDR") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the usage", args, code, errOut)
		}
		if strings.Contains(out, "listening") {
			t.Errorf("%v: it listened:\n%s", args, out)
		}
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("a refused command line wrote the data folder: %v", err)
	}
	code, out, _ := runMain(t, data, "-help")
	if code != 0 || !strings.Contains(out, "LK_DEBUG_ADDR") || !strings.Contains(out, "-version") {
		t.Errorf("-help: exit %d\n%s", code, out)
	}
}

// The first log line says which build is running.
func TestFirstLogLineHasTheBuild(t *testing.T) {
	_, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(),
	})
	stop()
	first, _, _ := strings.Cut(out.String(), "\n")
	var l struct{ Msg, Version, Commit, Go string }
	if err := json.Unmarshal([]byte(first), &l); err != nil || l.Go != runtime.Version() || l.Version == "" || l.Commit == "" {
		t.Errorf("first log line %q: want the version, commit and Go version", first)
	}
}

package lk

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A release signed with a throwaway key verifies as docs/operations.md
// tells its users to check it; a SHA256SUMS or an archive changed after
// signing, a key not in the signers' file and a signature by another key
// do not.
func TestReleaseSignatureVerifies(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed")
	}
	dir := t.TempDir()
	run := func(env []string, name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(out string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return out
	}
	newKey := func(name string) (key, pub string) {
		key = filepath.Join(dir, name)
		must(run(nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "releases@lk", "-f", key))
		b, err := os.ReadFile(key + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(b))
		return key, f[0] + " " + f[1]
	}
	key, pub := newKey("release")
	other, _ := newKey("other")
	signers := filepath.Join(dir, "signers")
	write := func(path, s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(signers, "# the release key\nreleases@lk namespaces=\"lk-release\" "+pub+"\n")

	dist := filepath.Join(dir, "dist")
	os.Mkdir(dist, 0o755)
	write(filepath.Join(dist, "lk-1.0.0-linux-amd64.tar.gz"), "an archive")
	write(filepath.Join(dist, "lk-1.0.0.cdx.json"), "{}")
	sums := filepath.Join(dist, "SHA256SUMS")
	inDist := func(script string) (string, error) {
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = dist
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must(inDist("sha256sum -- *.tar.gz *.cdx.json >SHA256SUMS"))
	signWith := func(k string) (string, error) {
		return run([]string{"RELEASE_KEY_FILE=" + k, "RELEASE_SIGNERS=" + signers}, "scripts/sign-release", dist)
	}
	verify := func() (string, error) { return run(nil, "scripts/verify-release", dist, signers) }

	must(signWith(key))
	must(verify())
	// The raw command of docs/operations.md, for users without the scripts.
	doc, err := os.ReadFile("docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	const raw = "ssh-keygen -Y verify -f release-signers -I releases@lk -n lk-release -s SHA256SUMS.sig < SHA256SUMS && sha256sum -c SHA256SUMS"
	if !strings.Contains(string(doc), raw) {
		t.Errorf("docs/operations.md does not give the command %q", raw)
	}
	must(inDist(strings.ReplaceAll(raw, "release-signers", signers)))

	original, _ := os.ReadFile(sums)
	write(sums, strings.Replace(string(original), "  lk-1.0.0", "  lk-1.0.1", 1))
	if out, err := verify(); err == nil {
		t.Errorf("a changed SHA256SUMS verified:\n%s", out)
	}
	write(sums, string(original))
	write(filepath.Join(dist, "lk-1.0.0-linux-amd64.tar.gz"), "another archive")
	if out, err := verify(); err == nil {
		t.Errorf("a changed archive verified:\n%s", out)
	}
	write(filepath.Join(dist, "lk-1.0.0-linux-amd64.tar.gz"), "an archive")
	must(verify())

	// A key the signers' file does not list signs nothing.
	if out, err := signWith(other); err == nil || !strings.Contains(out, "is not in") {
		t.Errorf("signed with a key not listed: %v\n%s", err, out)
	}
	// A signature by another key does not verify.
	os.Remove(sums + ".sig")
	must(run(nil, "ssh-keygen", "-Y", "sign", "-f", other, "-n", "lk-release", sums))
	if out, err := verify(); err == nil {
		t.Errorf("another key's signature verified:\n%s", out)
	}
	if out, err := signWith(filepath.Join(dir, "none")); err == nil || !strings.Contains(out, "RELEASE_KEY_FILE") {
		t.Errorf("a missing key: %v\n%s", err, out)
	}
}

package testkit

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Unzip is every file of a zip by name, in the order the zip holds them
// (names); a file that is not a zip fails the test.
func Unzip(t testing.TB, b []byte) (files map[string][]byte, names []string) {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files = map[string][]byte{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if _, twice := files[f.Name]; twice {
			t.Errorf("zip: %s twice", f.Name)
		}
		files[f.Name] = data
		names = append(names, f.Name)
	}
	return files, names
}

// Pass checks an Apple Wallet pass as Wallet does before it trusts it:
// manifest.json holds the SHA-1 of every other file and of no file
// missing, and signature is a detached DER PKCS#7 signature of exactly
// manifest.json, which openssl verifies (the chain is not checked: demo
// certificates are not Apple's). It answers the pass's files by name.
func Pass(t testing.TB, pkpass []byte) map[string][]byte {
	t.Helper()
	files, _ := Unzip(t, pkpass)
	var manifest map[string]string
	if err := json.Unmarshal(files["manifest.json"], &manifest); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	for name, data := range files {
		if name == "manifest.json" || name == "signature" {
			continue
		}
		sum := sha1.Sum(data)
		if manifest[name] != hex.EncodeToString(sum[:]) {
			t.Errorf("manifest.json: %s is %q, its SHA-1 %x", name, manifest[name], sum)
		}
	}
	for name := range manifest {
		if _, ok := files[name]; !ok || name == "manifest.json" || name == "signature" {
			t.Errorf("manifest.json names %s, which the pass does not hold", name)
		}
	}
	for _, need := range []string{"pass.json", "icon.png", "manifest.json", "signature"} {
		if _, ok := files[need]; !ok {
			t.Errorf("no %s in the pass", need)
		}
	}
	if out, err := VerifySignature(t, files["signature"], files["manifest.json"]); err != nil {
		t.Errorf("openssl smime -verify: %v\n%s", err, out)
	}
	return files
}

// VerifySignature runs openssl smime -verify on a detached DER signature of
// content, without checking the chain; err is nil when the signature is
// good. A machine without openssl skips the test.
func VerifySignature(t testing.TB, signature, content []byte) (string, error) {
	t.Helper()
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed: a pass's signature is not verified")
	}
	dir := t.TempDir()
	sig, body := filepath.Join(dir, "signature"), filepath.Join(dir, "manifest.json")
	if err := os.WriteFile(sig, signature, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(body, content, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(openssl, "smime", "-verify", "-binary", "-inform", "DER", "-in", sig, "-content", body,
		"-noverify", "-out", os.DevNull).CombinedOutput()
	return string(out), err
}

// PassJSON is a pass's pass.json, decoded.
func PassJSON(t testing.TB, files map[string][]byte) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(files["pass.json"], &p); err != nil {
		t.Fatalf("pass.json: %v", err)
	}
	return p
}

// PassCodes are the messages of a pass's barcodes (the new key's, then the
// old one's when it differs), sorted.
func PassCodes(t testing.TB, p map[string]any) []string {
	t.Helper()
	var codes []string
	list, _ := p["barcodes"].([]any)
	for _, b := range list {
		m, _ := b.(map[string]any)
		codes = append(codes, m["message"].(string))
	}
	if old, ok := p["barcode"].(map[string]any); ok && !slices.Contains(codes, old["message"].(string)) {
		codes = append(codes, old["message"].(string))
	}
	slices.Sort(codes)
	return codes
}

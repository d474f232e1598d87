package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lk/internal/testkit"
	"lk/wallet"
)

// In sandbox mode the passes are signed with a demo certificate made at the
// first start and kept in the data folder: a restart signs with the same.
func TestSandboxSignsPassesWithAKeptDemoCertificate(t *testing.T) {
	data := t.TempDir()
	vars := map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": data}
	addrs, out, stop := started(t, vars)
	b, sandboxURL := sandboxBrowser(t, addrs, out.String())
	if r := b.post("/login", url.Values{"phone": {"+7 (900) 000-00-00"}}); r != http.StatusSeeOther {
		t.Fatalf("POST /login: %d", r)
	}
	if r := b.post("/login/code", url.Values{"code": {sandboxCode(t, sandboxURL, "79000000000")}}); r != http.StatusSeeOther {
		t.Fatalf("POST /login/code: %d", r)
	}
	if b.get("/orders/hotel/400001"); !strings.Contains(b.body, `href="/orders/hotel/400001/voucher.pkpass"`) {
		t.Error("the demo's hotel order offers no pass")
	}
	if r := b.get("/orders/hotel/400001/voucher.pkpass"); r != http.StatusOK {
		t.Fatalf("the pass: %d", r)
	}
	p := testkit.PassJSON(t, testkit.Pass(t, []byte(b.body)))
	if p["passTypeIdentifier"] != wallet.DemoPassTypeID || !strings.HasPrefix(p["description"].(string), "(демо) ") {
		t.Errorf("pass.json %v", p)
	}
	stop()
	if !strings.Contains(out.String(), "signed with a demo certificate") || strings.Contains(out.String(), "passes are off") {
		t.Errorf("the start does not say the passes are the demo's:\n%s", out.String())
	}
	cert := filepath.Join(data, "wallet-demo", "pass.pem")
	first, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	_, out, stop = started(t, vars)
	stop()
	if again, _ := os.ReadFile(cert); !bytes.Equal(first, again) || !strings.Contains(out.String(), `"made":false`) {
		t.Errorf("a restart made a new demo certificate:\n%s", out.String())
	}
}

// The resort's gateway without a certificate: no passes, said once at start.
func TestNoCertificateNoPassesSaidOnce(t *testing.T) {
	gw := httptest.NewServer(http.NotFoundHandler())
	defer gw.Close()
	_, out, stop := started(t, map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(), "LK_GATEWAY_URL": gw.URL + "/v1"})
	stop()
	if n := strings.Count(out.String(), "Apple Wallet passes are off"); n != 1 {
		t.Errorf("said %d times:\n%s", n, out.String())
	}
}

func writeCredentials(t *testing.T, c wallet.Credentials) map[string]string {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{"LK_PASS_TYPE_ID": c.PassTypeID, "LK_PASS_TEAM_ID": c.TeamID}
	for name, b := range map[string][]byte{"LK_PASS_CERT_FILE": c.Cert, "LK_PASS_KEY_FILE": c.Key, "LK_PASS_WWDR_FILE": c.WWDR} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		vars[name] = path
	}
	return vars
}

// The resort's certificate is checked at start: a key or an intermediate
// that is not the certificate's stops it, naming the variable; a
// certificate past its end turns the passes off without stopping it.
func TestPassCredentialsAreCheckedAtStart(t *testing.T) {
	now := time.Now()
	good, err := wallet.NewDemo(now)
	if err != nil {
		t.Fatal(err)
	}
	other, err := wallet.NewDemo(now)
	if err != nil {
		t.Fatal(err)
	}
	gw := httptest.NewServer(http.NotFoundHandler())
	defer gw.Close()
	base := map[string]string{"LK_ADDR": "127.0.0.1:0", "LK_GATEWAY_URL": gw.URL + "/v1"}
	with := func(vars map[string]string) map[string]string {
		for k, v := range base {
			vars[k] = v
		}
		vars["LK_DATA_DIR"] = t.TempDir()
		return vars
	}

	_, out, stop := started(t, with(writeCredentials(t, good)))
	stop()
	if !strings.Contains(out.String(), "Apple Wallet passes signed") || strings.Contains(out.String(), "passes are off") {
		t.Errorf("the resort's certificate is not used:\n%s", out.String())
	}

	mixed := good
	mixed.Key = other.Key
	err = run(context.Background(), []string{"lk"}, env(with(writeCredentials(t, mixed))), io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "LK_PASS_CERT_FILE:") || !strings.Contains(err.Error(), "not the certificate's") {
		t.Errorf("another's key: %v", err)
	}

	old, err := wallet.NewDemo(now.AddDate(-2, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	_, out, stop = started(t, with(writeCredentials(t, old)))
	stop()
	if !strings.Contains(out.String(), "Apple Wallet passes are off: renew the certificate") {
		t.Errorf("an ended certificate is not said:\n%s", out.String())
	}
}

func TestPassVariablesGoTogether(t *testing.T) {
	_, err := loadConfig(env(map[string]string{"LK_PASS_CERT_FILE": "/x", "LK_PASS_KEY_FILE": "/y"}))
	if err == nil || !strings.HasPrefix(err.Error(), "LK_PASS_WWDR_FILE:") || !strings.Contains(err.Error(), "LK_PASS_CERT_FILE, LK_PASS_KEY_FILE") {
		t.Errorf("two of five: %v", err)
	}
	vars := writeCredentials(t, wallet.Credentials{Cert: []byte("c"), Key: []byte("k"), WWDR: []byte("w"), PassTypeID: "pass.ru.example.lk", TeamID: "ABCDE12345"})
	vars["LK_PASS_WWDR_FILE"] = filepath.Join(t.TempDir(), "none")
	if _, err := loadConfig(env(vars)); err == nil || !strings.HasPrefix(err.Error(), "LK_PASS_WWDR_FILE:") {
		t.Errorf("a missing file: %v", err)
	}
	for _, bad := range []string{"43.68", "91,40", "43.68,40.26;x,y", "север,юг"} {
		if _, err := loadConfig(env(map[string]string{"LK_PASS_LOCATION": bad})); err == nil || !strings.HasPrefix(err.Error(), "LK_PASS_LOCATION:") {
			t.Errorf("LK_PASS_LOCATION=%q: %v", bad, err)
		}
	}
	c, err := loadConfig(env(map[string]string{"LK_PASS_LOCATION": "43.6850, 40.2650; 43.70,40.30", "LK_PASS_MEETING_POINT": "у кассы № 2"}))
	if err != nil || len(c.Pass.Places) != 2 || c.Pass.Places[1].Longitude != 40.30 || c.Pass.MeetingPoint != "у кассы № 2" || c.Pass.Cred.Cert != nil {
		t.Errorf("%+v %v", c.Pass, err)
	}
}

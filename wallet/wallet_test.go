package wallet_test

import (
	"bytes"
	"encoding/pem"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lk/internal/testkit"
	"lk/wallet"
)

var now = time.Date(2026, 12, 1, 10, 0, 0, 0, time.FixedZone("MSK", 3*3600))

// Two demo pass types, made once: RSA keys take a while under -race.
var demos = sync.OnceValues(func() ([2]wallet.Credentials, error) {
	a, err := wallet.NewDemo(now)
	if err != nil {
		return [2]wallet.Credentials{}, err
	}
	b, err := wallet.NewDemo(now)
	return [2]wallet.Credentials{a, b}, err
})

func demo(t *testing.T, i int) wallet.Credentials {
	t.Helper()
	d, err := demos()
	if err != nil {
		t.Fatal(err)
	}
	return d[i]
}

func signer(t *testing.T) *wallet.Signer {
	t.Helper()
	s, err := wallet.Load(demo(t, 0), now)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var images = []wallet.File{{Name: "icon.png", Data: []byte("icon")}, {Name: "icon@2x.png", Data: []byte("icon 2x")}, {Name: "logo.png", Data: []byte("logo")}}

func ticket() wallet.Pass {
	return wallet.Pass{
		Serial: "aqua-300001-1", Style: wallet.EventTicket, Description: "Билет в аквапарк", Organization: "Курорт",
		LogoText: "Курорт", Colors: wallet.Colors{Foreground: "rgb(255, 255, 255)", Background: "rgb(11, 95, 165)", Label: "rgb(214, 229, 244)"},
		Relevant: now.Add(24 * time.Hour), Expires: now.Add(48 * time.Hour),
		Locations: []wallet.Location{{Latitude: 43.68, Longitude: 40.26, RelevantText: "Аквапарк рядом"}},
		Code:      "4630000100001",
		Header:    []wallet.Field{{Key: "date", Label: "Дата", Value: "02.12.2026"}},
		Primary:   []wallet.Field{{Key: "ticket", Label: "Аквапарк", Value: "Взрослый"}},
		Back:      []wallet.Field{{Key: "note", Label: "Внимание", Value: "Пропуск не обновляется."}},
	}
}

func TestPassIsSignedAsWalletChecksIt(t *testing.T) {
	b, err := signer(t).Package(ticket(), images)
	if err != nil {
		t.Fatal(err)
	}
	files, names := testkit.Unzip(t, b)
	want := []string{"pass.json", "icon.png", "icon@2x.png", "logo.png", "manifest.json", "signature"}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
	testkit.Pass(t, b) // the manifest's hashes and openssl's verdict
	for _, img := range images {
		if !bytes.Equal(files[img.Name], img.Data) {
			t.Errorf("%s changed", img.Name)
		}
	}
	p := testkit.PassJSON(t, files)
	for key, v := range map[string]any{
		"formatVersion": 1.0, "passTypeIdentifier": wallet.DemoPassTypeID, "teamIdentifier": wallet.DemoTeamID,
		"serialNumber": "aqua-300001-1", "organizationName": "Курорт", "description": "Билет в аквапарк",
		"relevantDate": "2026-12-02T10:00:00+03:00", "expirationDate": "2026-12-03T10:00:00+03:00",
		"backgroundColor": "rgb(11, 95, 165)",
	} {
		if p[key] != v {
			t.Errorf("pass.json %s = %v, want %v", key, p[key], v)
		}
	}
	if got := testkit.PassCodes(t, p); !slices.Equal(got, []string{"4630000100001"}) {
		t.Errorf("codes %v", got)
	}
	bc := p["barcodes"].([]any)[0].(map[string]any)
	if bc["format"] != "PKBarcodeFormatQR" || bc["messageEncoding"] != "iso-8859-1" {
		t.Errorf("barcode %v", bc)
	}
	if _, ok := p["webServiceURL"]; ok {
		t.Error("a web service is promised")
	}
	ev, ok := p["eventTicket"].(map[string]any)
	if !ok || ev["primaryFields"].([]any)[0].(map[string]any)["value"] != "Взрослый" {
		t.Errorf("eventTicket %v", p["eventTicket"])
	}
}

// The verification the tests rely on fails a pass whose manifest changed
// after it was signed.
func TestSignatureIsOfTheManifest(t *testing.T) {
	b, err := signer(t).Package(ticket(), images)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := testkit.Unzip(t, b)
	if out, err := testkit.VerifySignature(t, files["signature"], files["manifest.json"]); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	changed := bytes.Replace(files["manifest.json"], []byte(`"icon.png"`), []byte(`"icon.PNG"`), 1)
	if _, err := testkit.VerifySignature(t, files["signature"], changed); err == nil {
		t.Error("a changed manifest verifies")
	}
}

func TestGenericPassAndNoCode(t *testing.T) {
	p := ticket()
	p.Style, p.Code = wallet.Generic, ""
	b, err := signer(t).Package(p, images)
	if err != nil {
		t.Fatal(err)
	}
	j := testkit.PassJSON(t, testkit.Pass(t, b))
	if _, ok := j["generic"]; !ok || j["eventTicket"] != nil || j["barcodes"] != nil || j["barcode"] != nil {
		t.Errorf("pass.json %v", j)
	}
}

func TestBundleHoldsEachPass(t *testing.T) {
	s := signer(t)
	var passes []wallet.File
	for _, serial := range []string{"a-1", "a-2"} {
		p := ticket()
		p.Serial = serial
		b, err := s.Package(p, images)
		if err != nil {
			t.Fatal(err)
		}
		passes = append(passes, wallet.File{Name: serial + ".pkpass", Data: b})
	}
	b, err := wallet.Bundle(passes)
	if err != nil {
		t.Fatal(err)
	}
	files, names := testkit.Unzip(t, b)
	if !slices.Equal(names, []string{"a-1.pkpass", "a-2.pkpass"}) {
		t.Fatalf("bundle %v", names)
	}
	for _, n := range names {
		if got, _ := testkit.PassJSON(t, testkit.Pass(t, files[n]))["serialNumber"].(string); got+".pkpass" != n {
			t.Errorf("%s: serial %v", n, got)
		}
	}
}

func TestLoadRefusesWhatAnIPhoneWould(t *testing.T) {
	a, b := demo(t, 0), demo(t, 1)
	with := func(f func(*wallet.Credentials)) wallet.Credentials { c := a; f(&c); return c }
	for _, c := range []struct {
		name string
		cred wallet.Credentials
		at   time.Time
		want string
	}{
		{"another's key", with(func(c *wallet.Credentials) { c.Key = b.Key }), now, "not the certificate's"},
		{"another intermediate", with(func(c *wallet.Credentials) { c.WWDR = b.WWDR }), now, "did not issue"},
		{"another pass type", with(func(c *wallet.Credentials) { c.PassTypeID = "pass.ru.example.other" }), now, "is for pass type"},
		{"another team", with(func(c *wallet.Credentials) { c.TeamID = "ABCDE12345" }), now, "of team"},
		{"a bad pass type", with(func(c *wallet.Credentials) { c.PassTypeID = "ru.example" }), now, "pass type id"},
		{"a key that is a certificate", with(func(c *wallet.Credentials) { c.Key = a.Cert }), now, "not an unencrypted private key"},
		{"not a certificate", with(func(c *wallet.Credentials) { c.Cert = []byte("hello") }), now, "certificate"},
		{"expired", a, now.AddDate(1, 0, 1), "valid from"},
	} {
		_, err := wallet.Load(c.cred, c.at)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// Apple's certificates come as DER .cer files; they load as they are.
func TestLoadTakesDER(t *testing.T) {
	c := demo(t, 0)
	der := func(b []byte) []byte {
		block, _ := pem.Decode(b)
		return block.Bytes
	}
	c.Cert, c.WWDR = der(c.Cert), der(c.WWDR)
	if _, err := wallet.Load(c, now); err != nil {
		t.Fatal(err)
	}
}

func TestDemoIsKeptAndRenewed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wallet-demo")
	s1, made, err := wallet.Demo(dir, now)
	if err != nil || !made {
		t.Fatalf("first start: %v %v", made, err)
	}
	cert1, _ := os.ReadFile(filepath.Join(dir, "pass.pem"))
	if fi, err := os.Stat(filepath.Join(dir, "pass-key.pem")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file %v %v", fi.Mode(), err)
	}
	s2, made, err := wallet.Demo(dir, now.AddDate(0, 6, 0))
	cert2, _ := os.ReadFile(filepath.Join(dir, "pass.pem"))
	if err != nil || made || !bytes.Equal(cert1, cert2) || !s2.Expires().Equal(s1.Expires()) {
		t.Errorf("a restart made a new demo certificate: %v %v", made, err)
	}
	s3, made, err := wallet.Demo(dir, s1.Expires().Add(-7*24*time.Hour))
	if err != nil || !made || !s3.Expires().After(s1.Expires()) {
		t.Errorf("a certificate ending within a week is kept: %v %v", made, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pass.pem"), []byte("broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, made, err := wallet.Demo(dir, now); err != nil || !made {
		t.Errorf("a broken demo certificate is not made anew: %v %v", made, err)
	}
}

// One signer serves every request at once: each pass it signs in parallel
// verifies on its own.
func TestSignerSignsInParallel(t *testing.T) {
	s := signer(t)
	const n = 16
	out := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p := ticket()
			p.Serial = "aqua-300001-" + string(rune('a'+i))
			out[i], _ = s.Package(p, images)
		})
	}
	wg.Wait()
	for i, b := range out {
		if got := testkit.PassJSON(t, testkit.Pass(t, b))["serialNumber"]; got != "aqua-300001-"+string(rune('a'+i)) {
			t.Errorf("pass %d: serial %v", i, got)
		}
	}
}

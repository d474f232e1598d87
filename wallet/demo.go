package wallet

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"
)

// The demo's pass type: an iPhone refuses its passes, as no Apple
// intermediate issued its certificate.
const (
	DemoPassTypeID = "pass.ru.example.lk.demo"
	DemoTeamID     = "DEMO000000"
)

// Files of a demo folder.
const (
	demoCert = "pass.pem"
	demoKey  = "pass-key.pem"
	demoWWDR = "wwdr.pem"
)

// demoRenew is how long before its end a demo certificate is made anew.
const demoRenew = 30 * 24 * time.Hour

// Demo is the signer of the demo's passes, from dir where a demo
// certificate is kept; one is made there (made is true) when dir holds none
// that loads, or when its own ends within 30 days. Its chain is made as
// Apple's is: a certificate issued by an intermediate of the demo's own.
func Demo(dir string, now time.Time) (s *Signer, made bool, err error) {
	if c, err := readDemo(dir); err == nil {
		if s, err := Load(c, now); err == nil && now.Add(demoRenew).Before(s.Expires()) {
			return s, false, nil
		}
	}
	c, err := NewDemo(now)
	if err != nil {
		return nil, false, err
	}
	if err := writeDemo(dir, c); err != nil {
		return nil, false, err
	}
	s, err = Load(c, now)
	return s, err == nil, err
}

func readDemo(dir string) (Credentials, error) {
	c := Credentials{PassTypeID: DemoPassTypeID, TeamID: DemoTeamID}
	for name, dst := range map[string]*[]byte{demoCert: &c.Cert, demoKey: &c.Key, demoWWDR: &c.WWDR} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return c, err
		}
		*dst = b
	}
	return c, nil
}

// Each file is written whole and then renamed, so that a start cut short
// leaves the old file or the new, never half of one.
func writeDemo(dir string, c Credentials) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("wallet: demo certificate: %w", err)
	}
	for name, b := range map[string][]byte{demoCert: c.Cert, demoKey: c.Key, demoWWDR: c.WWDR} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path+".new", b, 0o600); err != nil {
			return fmt.Errorf("wallet: demo certificate: %w", err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			return fmt.Errorf("wallet: demo certificate: %w", err)
		}
	}
	return nil
}

// NewDemo makes the credentials of a demo pass type: an intermediate valid
// for ten years and a certificate it issued, valid for a year from now.
func NewDemo(now time.Time) (Credentials, error) {
	caKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return Credentials{}, err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return Credentials{}, err
	}
	ca := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "Демо: не Apple Worldwide Developer Relations", Organization: []string{"Личный кабинет, демонстрационный режим"}},
		NotBefore:    now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return Credentials{}, err
	}
	ca, _ = x509.ParseCertificate(caDER)
	leaf := &x509.Certificate{
		SerialNumber: serial(),
		Subject: pkix.Name{
			CommonName: "Pass Type ID: " + DemoPassTypeID, OrganizationalUnit: []string{DemoTeamID},
			Organization: []string{"Личный кабинет, демонстрационный режим"},
			ExtraNames:   []pkix.AttributeTypeAndValue{{Type: oidUID, Value: DemoPassTypeID}},
		},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageAny},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		return Credentials{}, err
	}
	return Credentials{
		Cert:       pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leafDER}),
		Key:        pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		WWDR:       pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		PassTypeID: DemoPassTypeID, TeamID: DemoTeamID,
	}, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}

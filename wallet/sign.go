package wallet

import (
	"archive/zip"
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/smallstep/pkcs7"
)

// Credentials are what Apple issues for a pass type: the Pass Type ID
// certificate and its key, Apple's intermediate (WWDR) certificate, and the
// identifiers the certificate names. Certificates are PEM or DER (Apple's
// .cer); the key is unencrypted PEM (PKCS#1, PKCS#8 or EC).
type Credentials struct {
	Cert, Key, WWDR []byte
	PassTypeID      string // "pass.ru.example.lk"
	TeamID          string // ten letters and digits
}

// Signer signs passes of one pass type.
type Signer struct {
	cert   *x509.Certificate
	key    crypto.Signer
	wwdr   *x509.Certificate
	typeID string
	teamID string
}

// ErrNotValidNow is a certificate used outside its dates: an iPhone
// refuses what it signs.
var ErrNotValidNow = errors.New("wallet: the certificate is not valid now")

var (
	passTypeID = regexp.MustCompile(`^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$`)
	teamID     = regexp.MustCompile(`^[A-Z0-9]{10}$`)
	// The user id attribute, where Apple writes the pass type identifier
	// in the certificate's subject.
	oidUID = asn1.ObjectIdentifier{0, 9, 2342, 19200300, 100, 1, 1}
)

// Load checks the credentials as an iPhone would judge the passes they sign:
// the key is the certificate's, the intermediate signed the certificate,
// the identifiers are the certificate's own, and it is valid at now.
func Load(c Credentials, now time.Time) (*Signer, error) {
	cert, err := parseCert(c.Cert)
	if err != nil {
		return nil, fmt.Errorf("wallet: certificate: %w", err)
	}
	wwdr, err := parseCert(c.WWDR)
	if err != nil {
		return nil, fmt.Errorf("wallet: intermediate certificate: %w", err)
	}
	key, err := parseKey(c.Key)
	if err != nil {
		return nil, fmt.Errorf("wallet: key: %w", err)
	}
	if pub, ok := key.Public().(interface{ Equal(crypto.PublicKey) bool }); !ok || !pub.Equal(cert.PublicKey) {
		return nil, errors.New("wallet: the key is not the certificate's")
	}
	if err := cert.CheckSignatureFrom(wwdr); err != nil {
		return nil, fmt.Errorf("wallet: the intermediate certificate (%s) did not issue the certificate (issuer %s): %w", wwdr.Subject.CommonName, cert.Issuer.CommonName, err)
	}
	if !passTypeID.MatchString(c.PassTypeID) {
		return nil, fmt.Errorf("wallet: pass type id %q is not such as pass.ru.example.lk", c.PassTypeID)
	}
	if !teamID.MatchString(c.TeamID) {
		return nil, fmt.Errorf("wallet: team id %q is not ten capital letters and digits", c.TeamID)
	}
	for _, n := range cert.Subject.Names {
		if v, _ := n.Value.(string); n.Type.Equal(oidUID) && v != c.PassTypeID {
			return nil, fmt.Errorf("wallet: the certificate is for pass type %q, not %q", v, c.PassTypeID)
		}
	}
	if ou := cert.Subject.OrganizationalUnit; len(ou) > 0 && !slices.Contains(ou, c.TeamID) {
		return nil, fmt.Errorf("wallet: the certificate is of team %q, not %q", ou[0], c.TeamID)
	}
	if now.Before(cert.NotBefore) || now.After(cert.NotAfter) {
		return nil, fmt.Errorf("%w: it is valid from %s to %s only", ErrNotValidNow, cert.NotBefore.Format(time.DateOnly), cert.NotAfter.Format(time.DateOnly))
	}
	return &Signer{cert: cert, key: key, wwdr: wwdr, typeID: c.PassTypeID, teamID: c.TeamID}, nil
}

// Expires is when the certificate ends: passes signed after it are refused.
func (s *Signer) Expires() time.Time { return s.cert.NotAfter }

// PassTypeID is the pass type the signer signs for.
func (s *Signer) PassTypeID() string { return s.typeID }

func parseCert(b []byte) (*x509.Certificate, error) {
	if block, _ := pem.Decode(b); block != nil {
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("a PEM %q, not a CERTIFICATE", block.Type)
		}
		b = block.Bytes
	}
	return x509.ParseCertificate(b)
}

func parseKey(b []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("not PEM (openssl pkcs12 -in pass.p12 -nocerts -nodes -out pass-key.pem makes one)")
	}
	var key any
	var err error
	switch block.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("a PEM %q, not an unencrypted private key", block.Type)
	}
	if err != nil {
		return nil, err
	}
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return k, nil
	case *ecdsa.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("a %T key: RSA or ECDSA only", key)
}

// File is one file of a pass besides pass.json: its images.
type File struct {
	Name string // "icon.png", "logo@2x.png"
	Data []byte
}

// Package is the signed .pkpass of p with its images.
func (s *Signer) Package(p Pass, images []File) ([]byte, error) {
	body, err := p.json(s.typeID, s.teamID)
	if err != nil {
		return nil, fmt.Errorf("wallet: pass.json: %w", err)
	}
	files := append([]File{{"pass.json", body}}, images...)
	manifest := make(map[string]string, len(files))
	for _, f := range files {
		if _, twice := manifest[f.Name]; twice || f.Name == "manifest.json" || f.Name == "signature" {
			return nil, fmt.Errorf("wallet: file %q given twice or reserved", f.Name)
		}
		sum := sha1.Sum(f.Data)
		manifest[f.Name] = hex.EncodeToString(sum[:])
	}
	m, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, err
	}
	sig, err := s.sign(m)
	if err != nil {
		return nil, err
	}
	return zipOf(append(files, File{"manifest.json", m}, File{"signature", sig}))
}

// sign is a detached DER PKCS#7 signature of data with the intermediate's
// certificate beside the signer's, as Wallet checks it.
func (s *Signer) sign(data []byte) ([]byte, error) {
	sd, err := pkcs7.NewSignedData(data)
	if err != nil {
		return nil, fmt.Errorf("wallet: sign: %w", err)
	}
	sd.SetDigestAlgorithm(pkcs7.OIDDigestAlgorithmSHA256)
	if err := sd.AddSignerChain(s.cert, s.key, []*x509.Certificate{s.wwdr}, pkcs7.SignerInfoConfig{}); err != nil {
		return nil, fmt.Errorf("wallet: sign: %w", err)
	}
	sd.Detach()
	sig, err := sd.Finish()
	if err != nil {
		return nil, fmt.Errorf("wallet: sign: %w", err)
	}
	return sig, nil
}

// Bundle is the .pkpasses of several signed passes, each named by its file.
func Bundle(passes []File) ([]byte, error) {
	return zipOf(passes)
}

func zipOf(files []File) ([]byte, error) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := z.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
		if err != nil {
			return nil, fmt.Errorf("wallet: zip: %w", err)
		}
		if _, err := w.Write(f.Data); err != nil {
			return nil, fmt.Errorf("wallet: zip: %w", err)
		}
	}
	if err := z.Close(); err != nil {
		return nil, fmt.Errorf("wallet: zip: %w", err)
	}
	return buf.Bytes(), nil
}

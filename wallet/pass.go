// Package wallet makes Apple Wallet passes (PassKit) and signs them: a pass
// is a zip of pass.json, its images, manifest.json (the SHA-1 of every other
// file) and signature, a detached PKCS#7 signature of the manifest made with
// the pass type's certificate, Apple's intermediate (WWDR) beside it. Several
// passes travel as one .pkpasses zip. It knows nothing of orders.
package wallet

import (
	"encoding/json"
	"time"
)

// Content types of one pass and of a bundle of several.
const (
	ContentType       = "application/vnd.apple.pkpass"
	BundleContentType = "application/vnd.apple.pkpasses"
)

// Style is the pass's layout in Wallet.
type Style string

const (
	EventTicket Style = "eventTicket" // a ticket with a time: a visit, a lesson
	Generic     Style = "generic"     // anything else: a hotel voucher
)

// Pass is what one pass shows; the signer adds who issued it.
type Pass struct {
	Serial       string // unique for the pass type; the same serial replaces a pass already in Wallet
	Style        Style
	Description  string // read out by VoiceOver and shown on the lock screen
	Organization string
	LogoText     string
	Colors       Colors
	Relevant     time.Time // the lock screen offers the pass near it; zero: never
	Expires      time.Time // Wallet greys the pass out after it; zero: never
	Locations    []Location
	// Code is the QR code's message (the gate's code); "" for a pass with none.
	Code string
	// Header fields show on a folded pass, beside the logo.
	Header, Primary, Secondary, Auxiliary, Back []Field
}

// Colors are CSS rgb() triples, as PassKit takes them: "rgb(11, 95, 165)".
type Colors struct {
	Foreground, Background, Label string
}

// Field is one label and value of a pass.
type Field struct {
	Key   string `json:"key"`
	Label string `json:"label,omitempty"`
	Value string `json:"value"`
}

// Location is a place near which the lock screen offers the pass.
type Location struct {
	Latitude     float64 `json:"latitude"`
	Longitude    float64 `json:"longitude"`
	RelevantText string  `json:"relevantText,omitempty"`
}

type barcode struct {
	Format   string `json:"format"`
	Message  string `json:"message"`
	Encoding string `json:"messageEncoding"`
	AltText  string `json:"altText,omitempty"`
}

type structure struct {
	Header    []Field `json:"headerFields,omitempty"`
	Primary   []Field `json:"primaryFields,omitempty"`
	Secondary []Field `json:"secondaryFields,omitempty"`
	Auxiliary []Field `json:"auxiliaryFields,omitempty"`
	Back      []Field `json:"backFields,omitempty"`
}

// passJSON is pass.json. No webServiceURL: a pass is never updated in
// place, so none is promised.
type passJSON struct {
	FormatVersion      int        `json:"formatVersion"`
	PassTypeIdentifier string     `json:"passTypeIdentifier"`
	TeamIdentifier     string     `json:"teamIdentifier"`
	SerialNumber       string     `json:"serialNumber"`
	OrganizationName   string     `json:"organizationName"`
	Description        string     `json:"description"`
	LogoText           string     `json:"logoText,omitempty"`
	ForegroundColor    string     `json:"foregroundColor,omitempty"`
	BackgroundColor    string     `json:"backgroundColor,omitempty"`
	LabelColor         string     `json:"labelColor,omitempty"`
	RelevantDate       string     `json:"relevantDate,omitempty"`
	ExpirationDate     string     `json:"expirationDate,omitempty"`
	Locations          []Location `json:"locations,omitempty"`
	Barcodes           []barcode  `json:"barcodes,omitempty"`
	// barcode is the key before iOS 9, still the only one some Android
	// wallet apps read.
	Barcode     *barcode   `json:"barcode,omitempty"`
	EventTicket *structure `json:"eventTicket,omitempty"`
	Generic     *structure `json:"generic,omitempty"`
}

// W3C date and time with the zone's offset, as PassKit takes them.
func w3c(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// The gate's scanner reads the code's bytes: Latin-1 when every character
// has one, as codes of digits and letters do; UTF-8 otherwise.
func encoding(s string) string {
	for _, r := range s {
		if r > 0xff {
			return "utf-8"
		}
	}
	return "iso-8859-1"
}

func (p Pass) json(typeID, teamID string) ([]byte, error) {
	j := passJSON{
		FormatVersion: 1, PassTypeIdentifier: typeID, TeamIdentifier: teamID, SerialNumber: p.Serial,
		OrganizationName: p.Organization, Description: p.Description, LogoText: p.LogoText,
		ForegroundColor: p.Colors.Foreground, BackgroundColor: p.Colors.Background, LabelColor: p.Colors.Label,
		RelevantDate: w3c(p.Relevant), ExpirationDate: w3c(p.Expires), Locations: p.Locations,
	}
	if p.Code != "" {
		b := barcode{Format: "PKBarcodeFormatQR", Message: p.Code, Encoding: encoding(p.Code), AltText: p.Code}
		j.Barcodes, j.Barcode = []barcode{b}, &b
	}
	s := &structure{Header: p.Header, Primary: p.Primary, Secondary: p.Secondary, Auxiliary: p.Auxiliary, Back: p.Back}
	if p.Style == Generic {
		j.Generic = s
	} else {
		j.EventTicket = s
	}
	return json.MarshalIndent(j, "", "  ")
}

package web

import (
	"crypto/rand"
	"encoding/base64"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"
)

// Secure sets the security headers, with a fresh CSP nonce per request.
// Only TLS or a trusted proxy (X-Forwarded-Proto) says the request came by
// https, and so asks for HSTS.
func Secure(trusted []*net.IPNet) echo.MiddlewareFunc {
	h := headers{trusted}
	return h.secure
}

type headers struct{ trusted []*net.IPNet }

func (hs headers) secure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		n := base64.StdEncoding.EncodeToString(b)
		c.Set(keyNonce, n)
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'nonce-"+n+"'; style-src 'self' 'nonce-"+n+
			"'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		// No device features; no other site holds our window or embeds our answers.
		h.Set("Permissions-Policy", "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if hs.scheme(c) == "https" {
			h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
		}
		if !strings.HasPrefix(c.Request().URL.Path, "/static/") {
			h.Set(echo.HeaderCacheControl, "no-store")
		}
		return next(c)
	}
}

// CrossOrigin is the CSRF defence of every form (Sec-Fetch-Site and Origin).
func CrossOrigin() echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if err := cop.Check(c.Request()); err != nil {
				return errForbidden
			}
			return next(c)
		}
	}
}

// A plain-http client cannot make the server claim https (and send HSTS):
// only TLS or a trusted proxy says so.
func (hs headers) scheme(c *echo.Context) string {
	r := c.Request()
	if r.TLS != nil {
		return "https"
	}
	if hs.fromTrustedProxy(r.RemoteAddr) {
		proto, _, _ := strings.Cut(r.Header.Get(echo.HeaderXForwardedProto), ",")
		if strings.EqualFold(strings.TrimSpace(proto), "https") {
			return "https"
		}
	}
	return "http"
}

func (hs headers) fromTrustedProxy(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	for _, n := range hs.trusted {
		if ip != nil && n.Contains(ip) {
			return true
		}
	}
	return false
}

package testkit

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Browser is one customer's browser against a server on plain http: it
// keeps cookies by hand, since the session's are Secure and Go's cookie
// jar sends those over https only, and it follows no redirect.
type Browser struct {
	Base    string            // the server, such as http://127.0.0.1:8080
	Cookies map[string]string // name → value
	Client  *http.Client      // nil: a client with a 10-second deadline
}

// NewBrowser is a browser with no cookies yet.
func NewBrowser(base string) *Browser { return &Browser{Base: base, Cookies: map[string]string{}} }

// Do sends req with the cookies, keeps the answer's, and answers the
// status and the body.
func (b *Browser) Do(req *http.Request) (int, string, error) {
	AddCookies(req, b.Cookies)
	c := b.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := nc.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	KeepCookies(b.Cookies, res)
	return res.StatusCode, string(body), err
}

// AddCookies puts the cookies of jar (name → value) on req.
func AddCookies(req *http.Request, jar map[string]string) {
	for k, v := range jar {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
}

// KeepCookies takes the cookies res sets into jar; one that res deletes
// leaves it.
func KeepCookies(jar map[string]string, res *http.Response) {
	for _, c := range res.Cookies() {
		if c.MaxAge < 0 || c.Value == "" {
			delete(jar, c.Name)
		} else {
			jar[c.Name] = c.Value
		}
	}
}

// Get loads path.
func (b *Browser) Get(path string) (int, string, error) {
	req, err := http.NewRequest(http.MethodGet, b.Base+path, nil)
	if err != nil {
		return 0, "", err
	}
	return b.Do(req)
}

// Post sends form to path.
func (b *Browser) Post(path string, form url.Values) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, b.Base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.Do(req)
}

// SignIn signs the sandbox's customer with phone (digits, such as
// 79000000000) in: POST /login, the code from the sandbox's SMS outbox at
// sandbox (its base URL, without /v1), POST /login/code.
func (b *Browser) SignIn(sandbox, phone string) error {
	if st, _, err := b.Post("/login", url.Values{"phone": {"+" + phone}}); err != nil || st != http.StatusSeeOther {
		return fmt.Errorf("POST /login: %d %v", st, err)
	}
	code, err := SandboxCode(sandbox, phone)
	if err != nil {
		return err
	}
	if st, _, err := b.Post("/login/code", url.Values{"code": {code}}); err != nil || st != http.StatusSeeOther {
		return fmt.Errorf("POST /login/code: %d %v", st, err)
	}
	return nil
}

// SandboxCode is the last SMS code the sandbox at sandbox (its base URL,
// without /v1) sent to phone (digits).
func SandboxCode(sandbox, phone string) (string, error) {
	res, err := http.Get(sandbox + "/sandbox/sms/" + phone)
	if err != nil {
		return "", err
	}
	var sms struct{ Code string }
	err = json.NewDecoder(res.Body).Decode(&sms)
	res.Body.Close()
	if err != nil || sms.Code == "" {
		return "", fmt.Errorf("the sandbox's outbox: %v", err)
	}
	return sms.Code, nil
}

package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"lk/gateway"
	"lk/handlers"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
	"lk/wallet"
)

// config is the server's configuration, read once from LK_ variables.
type config struct {
	Addr           string         // LK_ADDR
	GatewayURL     string         // LK_GATEWAY_URL; empty: the bundled sandbox (Sandbox says why)
	Sandbox        string         // why the bundled sandbox runs ("" when a real gateway is configured)
	SandboxAddr    string         // LK_SANDBOX_ADDR
	GatewayKey     string         // from LK_GATEWAY_KEY_FILE; empty: none sent (a random one between lk and its bundled sandbox)
	DataDir        string         // LK_DATA_DIR
	CookieKeys     []web.Key      // LK_COOKIE_KEYS or LK_COOKIE_KEYS_FILE
	CookieDomain   string         // LK_COOKIE_DOMAIN
	MainSiteURL    string         // LK_MAIN_SITE_URL
	SupportPhone   string         // LK_SUPPORT_PHONE
	Socials        []views.Social // LK_SOCIAL_LINKS
	Location       *time.Location // LK_TIMEZONE
	ConnectTimeout time.Duration  // LK_GATEWAY_CONNECT_TIMEOUT
	CallTimeout    time.Duration  // LK_GATEWAY_TIMEOUT
	MaxInFlight    int            // LK_GATEWAY_MAX_INFLIGHT
	PagesAtOnce    int            // LK_PAGES_IN_PROGRESS; 0: adaptive
	SharedTTL      time.Duration  // LK_GATEWAY_SHARED_TTL
	ProviderCheck  time.Duration  // LK_PROVIDER_CHECK_INTERVAL
	LogLevel       string         // LK_LOG_LEVEL
	ShutdownWait   time.Duration  // LK_SHUTDOWN_TIMEOUT
	ShutdownDrain  time.Duration  // LK_SHUTDOWN_DRAIN
	CodeInterval   time.Duration  // LK_CODE_INTERVAL
	TrustedProxies []*net.IPNet   // LK_TRUSTED_PROXIES
	RedisURL       string         // LK_REDIS_URL
	RedisPassword  string         // from LK_REDIS_PASSWORD_FILE; empty: the URL's own, if any
	KeptDocuments  int            // LK_KEPT_DOCUMENTS_MB, in bytes
	DebugAddr      string         // LK_DEBUG_ADDR; empty: no profiling
	DebugToken     string         // from LK_DEBUG_TOKEN_FILE; empty: the address alone guards it
	PublicURL      string         // LK_PUBLIC_URL; empty: derived from LK_ADDR

	Now func() time.Time // LK_FAKE_NOW (tests only); time.Now unless set

	SMSBudget handlers.SMSBudget // LK_SMS_PER_HOUR, LK_SMS_PER_DAY

	Pass passSettings // LK_PASS_*
}

// passSettings are the Apple Wallet passes' credentials, read from their
// files (none given: Cred.Cert is nil), and where the passes point.
type passSettings struct {
	Cred         wallet.Credentials
	Places       []wallet.Location // LK_PASS_LOCATION
	MeetingPoint string            // LK_PASS_MEETING_POINT
}

// variables documents every variable with its default, for errors and -help.
var variables = []struct{ name, def, doc string }{
	{"LK_ADDR", ":8080", "address the server listens on"},
	{"LK_GATEWAY_URL", "", "the provider's gateway base URL including /v1; empty or sandbox runs the bundled sandbox with demo data, and every page says so"},
	{"LK_GATEWAY_KEY_FILE", "", "a file holding the service key the provider's gateway gave this account, read at start and sent as X-Api-Key on every call (the background check's too), never logged; empty: no key sent (the bundled sandbox then asks for a random key of its own, the same way)"},
	{"LK_SANDBOX_ADDR", "127.0.0.1:8090", "where the bundled sandbox listens when LK_GATEWAY_URL is empty"},
	{"LK_DATA_DIR", "data", "folder of the sandbox's SQLite database and, without Redis, of the sign-out deny-list and the moves of bookings"},
	{"LK_COOKIE_KEYS", "", "comma-separated base64 keys of 64 random bytes; the first signs new cookies, all are accepted; empty: random keys, sessions end on restart"},
	{"LK_COOKIE_KEYS_FILE", "", "a file holding the cookie keys as LK_COOKIE_KEYS takes them (commas or one per line), read at start, so the keys need not sit in the environment; not with LK_COOKIE_KEYS"},
	{"LK_COOKIE_DOMAIN", "", "parent domain of the session cookie; empty: host-only __Host- cookie"},
	{"LK_MAIN_SITE_URL", "https://example.ru/", "the resort's main site, linked from the header"},
	{"LK_SUPPORT_PHONE", "+7 (800) 000-00-00", "support phone shown in the header and footer"},
	{"LK_SOCIAL_LINKS", "ВКонтакте=https://vk.com/,Telegram=https://t.me/", "comma-separated Name=URL social links"},
	{"LK_TIMEZONE", "Europe/Moscow", "the resort's time zone"},
	{"LK_GATEWAY_CONNECT_TIMEOUT", "3s", "connect deadline of provider calls"},
	{"LK_GATEWAY_TIMEOUT", "10s", "whole-call deadline of provider calls"},
	{"LK_GATEWAY_MAX_INFLIGHT", "256", "provider calls one instance has in flight at most; beyond it a page answers at once with a Russian 503 and Retry-After instead of waiting on a slow provider"},
	{"LK_PAGES_IN_PROGRESS", "0", "signed-in pages one instance works on at once at most; beyond it a page waits its turn up to 2 s, or is answered at once with a Russian 503 and Retry-After when it could not have it in time; 0: the limit adapts to the instance's cores (it falls when ready goroutines wait for a CPU)"},
	{"LK_GATEWAY_SHARED_TTL", "30s", "how long answers that are the same for every customer (a day's water-park sessions, an instructor's timetable, a rent's schedule, the hotel's days) are kept and shared in one instance; 0s: asked for every page"},
	{"LK_PROVIDER_CHECK_INTERVAL", "15s", "how often each instance checks the provider in the background (today's water-park sessions, read as a page reads them) for lk_provider_up and /readyz's body: counted down after 3 checks in a row answered 5xx, outside the contract, refused this service, timed out or found no connection, up again after 2 good ones"},
	{"LK_LOG_LEVEL", "info", "debug, info, warn or error"},
	{"LK_SHUTDOWN_TIMEOUT", "15s", "how long SIGTERM waits for requests in flight"},
	{"LK_SHUTDOWN_DRAIN", "0s", "how long SIGTERM keeps serving with /readyz at 503 before it closes the listener; behind a balancer, longer than it takes to see a failed check"},
	{"LK_CODE_INTERVAL", "60s", "how long a phone waits between SMS codes (60 s; the browser tests shorten it)"},
	{"LK_TRUSTED_PROXIES", "", "comma-separated CIDRs of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed; empty: the connection's address and scheme"},
	{"LK_REDIS_URL", "", "redis://host:port/db, or redis-sentinel://[password@]host:26379[,host:26379…][/db]#master for a Sentinel-managed master with replicas, shared by several instances (sign-in limits, sign-outs, one-time tokens, refund files), run with appendonly yes and maxmemory-policy noeviction; empty: one instance, state in memory and the data folder"},
	{"LK_REDIS_PASSWORD_FILE", "", "a file holding the password of the Redis data servers (the master and its replicas), read at start, so that it need not sit in LK_REDIS_URL or the environment; it takes the place of one in the URL. The Sentinels' own password and TLS go in the URL's go-redis form, redis[s]://user:password@sentinel:26379/0?master_name=mymaster&addr=sentinel2:26379"},
	{"LK_PUBLIC_URL", "", "where customers reach the account, such as https://lk.example.ru: the start of every absolute URL the server writes (the calendar file's link to the order), never taken from a request's Host; empty: http://localhost:<port of LK_ADDR>, or http://<host of LK_ADDR>:<port> when LK_ADDR names a host"},
	{"LK_KEPT_DOCUMENTS_MB", "64", "megabytes of refund documents kept for a retry, for every customer together: in this instance's memory, or with LK_REDIS_URL in Redis over all instances (count them in Redis's maxmemory); beyond it a customer is told the server cannot keep documents now. One customer keeps at most 25 MB whatever this says"},
	{"LK_DEBUG_ADDR", "", "private address of /metrics and net/http/pprof (/debug/pprof/), e.g. 127.0.0.1:6060; never the public one; empty: neither"},
	{"LK_DEBUG_TOKEN_FILE", "", "a file holding a secret that LK_DEBUG_ADDR then asks of every request (Authorization: Bearer, or Basic with it as the password); empty: the address alone guards it"},
	{"LK_FAKE_NOW", "", "for tests only, with the bundled sandbox: the clock of the date rules and the sandbox stands still at this instant, e.g. 2026-11-23T23:59:00+03:00 (waits such as LK_CODE_INTERVAL then never end); empty: the real clock"},
	{"LK_SMS_PER_HOUR", strconv.Itoa(handlers.DefaultCodesPerHour), "SMS codes the whole service (every instance on one Redis) sends in an hour at most; beyond it sign-in codes wait, and the log warns at 80 %. Sign-ups may spend half of it, sign-ups and unknown browsers three quarters; the rest is kept for customers on a browser they signed in from before"},
	{"LK_SMS_PER_DAY", strconv.Itoa(handlers.DefaultCodesPerDay), "SMS codes the whole service sends in 24 hours at most, as LK_SMS_PER_HOUR"},
	{"LK_PASS_CERT_FILE", "", "a file holding the Pass Type ID certificate (PEM, or Apple's DER .cer) that signs the orders' Apple Wallet passes; with LK_PASS_KEY_FILE, LK_PASS_WWDR_FILE, LK_PASS_TYPE_ID and LK_PASS_TEAM_ID, all five or none; none: no passes with the resort's gateway, a demo certificate kept in LK_DATA_DIR/wallet-demo with the sandbox"},
	{"LK_PASS_KEY_FILE", "", "a file holding that certificate's private key, unencrypted PEM (openssl pkcs12 -in pass.p12 -nocerts -nodes)"},
	{"LK_PASS_WWDR_FILE", "", "a file holding Apple's intermediate certificate that issued it (Worldwide Developer Relations, PEM or DER)"},
	{"LK_PASS_TYPE_ID", "", "the pass type identifier the certificate is for, such as pass.ru.example.lk"},
	{"LK_PASS_TEAM_ID", "", "the Apple developer team identifier the certificate names, ten letters and digits"},
	{"LK_PASS_LOCATION", "", "latitude,longitude of the resort (several separated by ;), near which an iPhone's lock screen offers a pass; empty: none"},
	{"LK_PASS_MEETING_POINT", "", "where a lesson's group meets its instructor, shown on the lesson's pass; empty: горнолыжный комплекс"},
}

// toolVariables are LK_ names that the repository's own tests and scripts
// read (the browser tests pass their environment on to the server); the
// server passes over them, and over nothing else of its prefix.
var toolVariables = []string{"LK_CHROMIUM", "LK_E2E_URL", "LK_E2E_SANDBOX", "LK_TEST_NOW", "LK_E2E_TZ",
	"LK_PDF_OUT", "LK_TEST_MAIN", "LK_TEST_REDIS_CLIENT"}

// sandboxGateway is the value of LK_GATEWAY_URL that asks for the bundled
// sandbox in so many words.
const sandboxGateway = "sandbox"

// loadConfig reads and checks the configuration from environ (NAME=value
// lines, as os.Environ gives them); an error names the variable. An LK_
// name the server does not know stops it: a misspelt variable would
// otherwise leave its default in force, and an empty LK_GATEWAY_URL runs
// the demo data.
func loadConfig(environ []string) (config, error) {
	vars := map[string]string{}
	for _, kv := range environ {
		if name, v, ok := strings.Cut(kv, "="); ok {
			vars[name] = v
		}
	}
	if err := unknownVariables(vars); err != nil {
		return config{}, err
	}
	get := func(name string) string {
		if v := strings.TrimSpace(vars[name]); v != "" {
			return v
		}
		for _, v := range variables {
			if v.name == name {
				return v.def
			}
		}
		return ""
	}
	var c config
	var err error
	c.Addr = get("LK_ADDR")
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return c, fmt.Errorf("LK_ADDR: %q is not host:port", c.Addr)
	}
	c.GatewayURL = strings.TrimRight(get("LK_GATEWAY_URL"), "/")
	switch c.GatewayURL {
	case "":
		c.Sandbox = "LK_GATEWAY_URL is empty"
	case sandboxGateway:
		c.Sandbox, c.GatewayURL = "LK_GATEWAY_URL=sandbox", ""
	default:
		u, err := url.Parse(c.GatewayURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return c, fmt.Errorf("LK_GATEWAY_URL: %q is not an http(s) URL (or sandbox, for the demo)", c.GatewayURL)
		}
		// The version is part of the contract: a base URL without it would
		// send every call to paths the gateway does not serve, and one of
		// another version to a contract this build does not speak.
		if path.Base(u.Path) != gateway.APIVersion {
			return c, fmt.Errorf("LK_GATEWAY_URL: %q does not end in /%s, the version of the gateway's API this build speaks (did you mean %s?)",
				c.GatewayURL, gateway.APIVersion, versioned(*u))
		}
	}
	if file := get("LK_GATEWAY_KEY_FILE"); file != "" {
		if c.GatewayKey, err = readServiceKey("LK_GATEWAY_KEY_FILE", file); err != nil {
			return c, err
		}
	}
	c.SandboxAddr = get("LK_SANDBOX_ADDR")
	if _, _, err := net.SplitHostPort(c.SandboxAddr); err != nil {
		return c, fmt.Errorf("LK_SANDBOX_ADDR: %q is not host:port", c.SandboxAddr)
	}
	c.DataDir = get("LK_DATA_DIR")
	keysFrom, keys := "LK_COOKIE_KEYS", get("LK_COOKIE_KEYS")
	if file := get("LK_COOKIE_KEYS_FILE"); file != "" {
		if keys != "" {
			return c, errors.New("LK_COOKIE_KEYS_FILE: set it or LK_COOKIE_KEYS, not both")
		}
		if keys, err = readSecret("LK_COOKIE_KEYS_FILE", file); err != nil {
			return c, err
		}
		keysFrom, keys = "LK_COOKIE_KEYS_FILE", strings.Join(strings.Fields(keys), ",")
		if keys == "" {
			return c, fmt.Errorf("LK_COOKIE_KEYS_FILE: %s holds no key", file)
		}
	}
	if keys != "" {
		for i, k := range strings.Split(keys, ",") {
			key, err := web.ParseKey(strings.TrimSpace(k))
			if err != nil {
				return c, fmt.Errorf("%s: key %d: %v (make one with: head -c 64 /dev/urandom | base64 -w0)", keysFrom, i+1, err)
			}
			c.CookieKeys = append(c.CookieKeys, key)
		}
	}
	c.CookieDomain = get("LK_COOKIE_DOMAIN")
	c.MainSiteURL = get("LK_MAIN_SITE_URL")
	if u, err := url.Parse(c.MainSiteURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return c, fmt.Errorf("LK_MAIN_SITE_URL: %q is not an http(s) URL", c.MainSiteURL)
	}
	c.SupportPhone = get("LK_SUPPORT_PHONE")
	if links := get("LK_SOCIAL_LINKS"); links != "" {
		for _, pair := range strings.Split(links, ",") {
			name, link, ok := strings.Cut(strings.TrimSpace(pair), "=")
			u, err := url.Parse(link)
			if !ok || name == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") {
				return c, fmt.Errorf("LK_SOCIAL_LINKS: %q is not Name=https://…", pair)
			}
			c.Socials = append(c.Socials, views.Social{Name: name, URL: link})
		}
	}
	if c.Location, err = time.LoadLocation(get("LK_TIMEZONE")); err != nil {
		return c, fmt.Errorf("LK_TIMEZONE: %v", err)
	}
	for _, d := range []struct {
		name string
		dst  *time.Duration
	}{{"LK_GATEWAY_CONNECT_TIMEOUT", &c.ConnectTimeout}, {"LK_GATEWAY_TIMEOUT", &c.CallTimeout}, {"LK_SHUTDOWN_TIMEOUT", &c.ShutdownWait}, {"LK_CODE_INTERVAL", &c.CodeInterval},
		{"LK_PROVIDER_CHECK_INTERVAL", &c.ProviderCheck}} {
		if *d.dst, err = time.ParseDuration(get(d.name)); err != nil || *d.dst <= 0 {
			return c, fmt.Errorf("%s: %q is not a positive duration such as 10s", d.name, get(d.name))
		}
	}
	if c.MaxInFlight, err = strconv.Atoi(get("LK_GATEWAY_MAX_INFLIGHT")); err != nil || c.MaxInFlight <= 0 {
		return c, fmt.Errorf("LK_GATEWAY_MAX_INFLIGHT: %q is not a positive number of calls such as 256", get("LK_GATEWAY_MAX_INFLIGHT"))
	}
	if c.PagesAtOnce, err = strconv.Atoi(get("LK_PAGES_IN_PROGRESS")); err != nil || c.PagesAtOnce < 0 {
		return c, fmt.Errorf("LK_PAGES_IN_PROGRESS: %q is not a number of pages such as 64 (0: adaptive)", get("LK_PAGES_IN_PROGRESS"))
	}
	if c.SharedTTL, err = time.ParseDuration(get("LK_GATEWAY_SHARED_TTL")); err != nil || c.SharedTTL < 0 {
		return c, fmt.Errorf("LK_GATEWAY_SHARED_TTL: %q is not a duration such as 30s (0s: nothing kept)", get("LK_GATEWAY_SHARED_TTL"))
	}
	// An action in flight at SIGTERM is waited for: a shutdown that ends
	// before the provider's deadline would cut it and lose its outcome.
	if c.ShutdownWait < c.CallTimeout {
		return c, fmt.Errorf("LK_SHUTDOWN_TIMEOUT=%s is shorter than the provider's deadline LK_GATEWAY_TIMEOUT=%s: an action in flight at SIGTERM would be cut before the provider answers; make LK_SHUTDOWN_TIMEOUT at least %s",
			c.ShutdownWait, c.CallTimeout, c.CallTimeout)
	}
	if c.ShutdownDrain, err = time.ParseDuration(get("LK_SHUTDOWN_DRAIN")); err != nil || c.ShutdownDrain < 0 {
		return c, fmt.Errorf("LK_SHUTDOWN_DRAIN: %q is not a duration such as 5s (0s: no wait)", get("LK_SHUTDOWN_DRAIN"))
	}
	if proxies := get("LK_TRUSTED_PROXIES"); proxies != "" {
		for _, cidr := range strings.Split(proxies, ",") {
			_, n, err := net.ParseCIDR(strings.TrimSpace(cidr))
			if err != nil {
				return c, fmt.Errorf("LK_TRUSTED_PROXIES: %q is not a CIDR such as 10.0.0.0/8", cidr)
			}
			c.TrustedProxies = append(c.TrustedProxies, n)
		}
	}
	c.RedisURL = get("LK_REDIS_URL")
	if strings.HasPrefix(c.RedisURL, "redis-sentinel://") {
		if _, err := store.ParseSentinelURL(c.RedisURL); err != nil {
			return c, fmt.Errorf("LK_REDIS_URL: %q: %v", c.RedisURL, strings.TrimPrefix(err.Error(), "store: LK_REDIS_URL: "))
		}
	} else if c.RedisURL != "" {
		u, err := url.Parse(c.RedisURL)
		if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
			return c, fmt.Errorf("LK_REDIS_URL: %q is not a redis:// URL such as redis://127.0.0.1:6379/0, nor redis-sentinel://host:26379,host:26379/0#master", c.RedisURL)
		}
	}
	mb, err := strconv.Atoi(get("LK_KEPT_DOCUMENTS_MB"))
	if err != nil || mb < 0 || mb > 64<<10 {
		return c, fmt.Errorf("LK_KEPT_DOCUMENTS_MB: %q is not a number of megabytes from 0 to 65536, such as 64", get("LK_KEPT_DOCUMENTS_MB"))
	}
	c.KeptDocuments = mb << 20
	if c.DebugAddr = get("LK_DEBUG_ADDR"); c.DebugAddr != "" {
		if _, _, err := net.SplitHostPort(c.DebugAddr); err != nil {
			return c, fmt.Errorf("LK_DEBUG_ADDR: %q is not host:port such as 127.0.0.1:6060", c.DebugAddr)
		}
	}
	if file := get("LK_REDIS_PASSWORD_FILE"); file != "" {
		if c.RedisURL == "" {
			return c, errors.New("LK_REDIS_PASSWORD_FILE: set without LK_REDIS_URL")
		}
		if c.RedisPassword, err = readSecret("LK_REDIS_PASSWORD_FILE", file); err != nil {
			return c, err
		}
		if c.RedisPassword = strings.TrimRight(c.RedisPassword, "\r\n"); c.RedisPassword == "" {
			return c, fmt.Errorf("LK_REDIS_PASSWORD_FILE: %s is empty", file)
		}
	}
	if file := get("LK_DEBUG_TOKEN_FILE"); file != "" {
		if c.DebugToken, err = readSecret("LK_DEBUG_TOKEN_FILE", file); err != nil {
			return c, err
		}
		if c.DebugToken = strings.TrimSpace(c.DebugToken); len(c.DebugToken) < 16 {
			return c, fmt.Errorf("LK_DEBUG_TOKEN_FILE: %s holds fewer than 16 characters (make one with: head -c 32 /dev/urandom | base64 -w0)", file)
		}
	}
	if c.PublicURL, err = publicURL(get("LK_PUBLIC_URL"), c.Addr); err != nil {
		return c, err
	}
	c.Now = time.Now
	if fake := get("LK_FAKE_NOW"); fake != "" {
		at, err := time.Parse(time.RFC3339, fake)
		switch {
		case err != nil:
			return c, fmt.Errorf("LK_FAKE_NOW: %q is not an instant such as 2026-11-23T23:59:00+03:00", fake)
		case c.Sandbox == "":
			return c, fmt.Errorf("LK_FAKE_NOW is for tests on the bundled sandbox: unset it or LK_GATEWAY_URL")
		}
		c.Now = func() time.Time { return at }
	}
	for _, n := range []struct {
		name string
		dst  *int
	}{{"LK_SMS_PER_HOUR", &c.SMSBudget.Hour}, {"LK_SMS_PER_DAY", &c.SMSBudget.Day}} {
		if *n.dst, err = strconv.Atoi(get(n.name)); err != nil || *n.dst <= 0 {
			return c, fmt.Errorf("%s: %q is not a positive number of codes", n.name, get(n.name))
		}
	}
	if c.Pass, err = loadPass(get); err != nil {
		return c, err
	}
	c.LogLevel = get("LK_LOG_LEVEL")
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return c, fmt.Errorf("LK_LOG_LEVEL: %q is not debug, info, warn or error", c.LogLevel)
	}
	return c, nil
}

// versioned is u with the contract's version as its last segment: cut
// after the version where the path names it, in place of another version,
// or added.
func versioned(u url.URL) string {
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	if i := slices.Index(segs, gateway.APIVersion); i >= 0 {
		segs = segs[:i]
	} else if last := segs[len(segs)-1]; len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		segs = segs[:len(segs)-1]
	}
	u.Path = path.Join(append([]string{"/"}, append(segs, gateway.APIVersion)...)...)
	return u.String()
}

var passFiles = []string{"LK_PASS_CERT_FILE", "LK_PASS_KEY_FILE", "LK_PASS_WWDR_FILE", "LK_PASS_TYPE_ID", "LK_PASS_TEAM_ID"}

// loadPass reads the passes' credentials (all five variables or none; they
// are checked against each other at start) and places.
func loadPass(get func(string) string) (passSettings, error) {
	var p passSettings
	var set, unset []string
	for _, name := range passFiles {
		if get(name) == "" {
			unset = append(unset, name)
		} else {
			set = append(set, name)
		}
	}
	if len(set) > 0 && len(unset) > 0 {
		return p, fmt.Errorf("%s: set it too, as %s are: the passes need all five", unset[0], strings.Join(set, ", "))
	}
	if len(set) > 0 {
		for name, dst := range map[string]*[]byte{"LK_PASS_CERT_FILE": &p.Cred.Cert, "LK_PASS_KEY_FILE": &p.Cred.Key, "LK_PASS_WWDR_FILE": &p.Cred.WWDR} {
			b, err := readSecret(name, get(name))
			if err != nil {
				return p, err
			}
			*dst = []byte(b)
		}
		p.Cred.PassTypeID, p.Cred.TeamID = get("LK_PASS_TYPE_ID"), get("LK_PASS_TEAM_ID")
	}
	if raw := get("LK_PASS_LOCATION"); raw != "" {
		for _, pair := range strings.Split(raw, ";") {
			lat, lon, ok := strings.Cut(strings.TrimSpace(pair), ",")
			la, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
			lo, err2 := strconv.ParseFloat(strings.TrimSpace(lon), 64)
			if !ok || err1 != nil || err2 != nil || la < -90 || la > 90 || lo < -180 || lo > 180 {
				return p, fmt.Errorf("LK_PASS_LOCATION: %q is not latitude,longitude such as 43.6850,40.2650", pair)
			}
			p.Places = append(p.Places, wallet.Location{Latitude: la, Longitude: lo})
		}
	}
	p.MeetingPoint = get("LK_PASS_MEETING_POINT")
	return p, nil
}

// readSecret reads a secret's file, named by the variable in an error
// (never the content).
func readSecret(name, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return string(b), nil
}

// readServiceKey reads a key sent in a header: one line of printable
// ASCII, the line's end and spaces around it dropped. An error names the
// variable and the file, never the content.
func readServiceKey(name, path string) (string, error) {
	raw, err := readSecret(name, path)
	if err != nil {
		return "", err
	}
	key := strings.TrimSpace(raw)
	if key == "" {
		return "", fmt.Errorf("%s: %s holds no key", name, path)
	}
	for _, r := range key {
		if r < 0x21 || r > 0x7e {
			return "", fmt.Errorf("%s: %s holds more than one line, or a character a header cannot carry (spaces, control characters, non-ASCII letters): the key goes as it is in a header", name, path)
		}
	}
	return key, nil
}

// usesDataDir tells whether the server keeps anything in LK_DATA_DIR: the
// sandbox's database, or without Redis the sign-outs, moves and used forms.
func (c config) usesDataDir() bool { return c.Sandbox != "" || c.RedisURL == "" }

// publicURL checks LK_PUBLIC_URL, or derives it from the listen address:
// the server's own name for itself, never one a request brings.
func publicURL(raw, addr string) (string, error) {
	if raw == "" {
		host, port, _ := net.SplitHostPort(addr) // checked already
		if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
			host = "localhost"
		}
		return "http://" + net.JoinHostPort(host, port), nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" ||
		u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("LK_PUBLIC_URL: %q is not a site's address such as https://lk.example.ru", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// unknownVariables refuses names of the LK_ prefix, in any case, that are
// neither the server's nor the repository tools', each with the known name
// closest to it.
func unknownVariables(vars map[string]string) error {
	known := map[string]bool{}
	for _, v := range variables {
		known[v.name] = true
	}
	for _, name := range toolVariables {
		known[name] = true
	}
	var bad []string
	for name := range vars {
		upper := strings.ToUpper(name)
		switch {
		case known[name] || !strings.HasPrefix(upper, "LK_"):
		case upper != name && known[upper]:
			// Names are case-sensitive: lk_gateway_url would leave
			// LK_GATEWAY_URL empty and run the demo data.
			bad = append(bad, fmt.Sprintf("%s: not a variable of lk (names are upper-case); did you mean %s? (lk -help lists them)", name, upper))
		default:
			bad = append(bad, fmt.Sprintf("%s: not a variable of lk; did you mean %s? (lk -help lists them)", name, closestVariable(upper)))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return errors.New(strings.Join(bad, "\n"))
}

// closestVariable is the server's variable nearest to name by edit
// distance; on a tie, one that contains name or is contained in it
// (a name cut short, or with a word too), then the first documented.
func closestVariable(name string) string {
	best, bestD, bestPart := "", -1, false
	for _, v := range variables {
		d := editDistance(name, v.name)
		part := strings.Contains(v.name, name) || strings.Contains(name, v.name)
		if bestD < 0 || d < bestD || d == bestD && part && !bestPart {
			best, bestD, bestPart = v.name, d, part
		}
	}
	return best
}

// editDistance is Levenshtein's: insertions, deletions and substitutions.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

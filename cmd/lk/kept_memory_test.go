package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"lk/gateway/sandbox"
	"lk/store/redistest"
)

// 100 parallel GETs of a refund form whose session keeps 25 MB of
// documents leave the real program's peak RSS under 256 MB, with the
// documents in memory and in a real Redis: a page lists the documents by
// name and size and never reads their bytes. The program is built without
// the race detector, as it ships.
func TestKeptDocumentsPeakRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the program")
	}
	bin := filepath.Join(t.TempDir(), "lk")
	if out, err := exec.Command("go", "build", "-o", bin, "lk/cmd/lk").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, name := range []string{"memory", "redis"} {
		t.Run(name, func(t *testing.T) {
			var vars []string
			if name == "redis" {
				vars = append(vars, "LK_REDIS_URL="+redistest.Start(t, redistest.Durable...).URL())
			}
			base, sb, pid := startProgram(t, bin, vars...)
			c := signIn(t, base, sb)
			form := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
			page := get(t, c, base+form)
			action := regexp.MustCompile(`action="(` + regexp.QuoteMeta(form) + `\?form=[^"]+)"`).FindStringSubmatch(page)
			token := regexp.MustCompile(`name="token" value="([^"]+)"`).FindStringSubmatch(page)
			if action == nil || token == nil {
				t.Fatalf("no refund form: %.300s", page)
			}
			// No reason given: refused, and the 25 MB of documents kept.
			body, ctype := documents(t, url.Values{"token": {token[1]}, "surname": {"Иванов"}, "name": {"Иван"}, "phone": {"+7 900 000-00-00"}},
				10<<20, 10<<20, 5<<20-64<<10)
			r, err := c.Post(base+strings.ReplaceAll(action[1], "&amp;", "&"), ctype, bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, r.Body)
			r.Body.Close()
			if kept := strings.Count(get(t, c, base+form), `name="remove"`); r.StatusCode != http.StatusUnprocessableEntity || kept != 3 {
				t.Fatalf("refusal: %d, %d documents kept", r.StatusCode, kept)
			}
			var wg sync.WaitGroup
			for range 100 {
				wg.Go(func() { get(t, c, base+form) })
			}
			wg.Wait()
			peak := vmHWM(t, pid)
			t.Logf("%s: peak RSS %d MB after 100 parallel GETs of a form with 25 MB kept", name, peak>>20)
			if peak >= 256<<20 {
				t.Errorf("peak RSS %d MB, want under 256", peak>>20)
			}
		})
	}
}

// startProgram runs bin on free loopback ports and waits until it is ready.
func startProgram(t *testing.T, bin string, vars ...string) (base, sandboxURL string, pid int) {
	t.Helper()
	addr, sb := freeAddr(t), freeAddr(t)
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(), "LK_ADDR="+addr, "LK_SANDBOX_ADDR="+sb, "LK_DATA_DIR="+t.TempDir(), "LK_LOG_LEVEL=warn"), vars...)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base = "http://" + addr
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if r, err := http.Get(base + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the program did not start: %s", logs.String())
		}
	}
	return base, "http://" + sb, cmd.Process.Pid
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// signIn signs the demo customer in through the plain forms.
func signIn(t *testing.T, base, sb string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path string, form url.Values) {
		r, err := c.PostForm(base+path, form)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %d", path, r.StatusCode)
		}
	}
	post("/login", url.Values{"phone": {sandbox.DemoPhone}})
	var sms struct{ Code string }
	r, err := http.Get(sb + "/sandbox/sms/" + sandbox.DemoPhone)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(r.Body).Decode(&sms)
	r.Body.Close()
	post("/login/code", url.Values{"code": {sms.Code}})
	return c
}

func get(t *testing.T, c *http.Client, u string) string {
	r, err := c.Get(u)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %d", u, r.StatusCode)
	}
	return string(b)
}

// documents is a multipart body of fields and documents of the sizes given.
func documents(t *testing.T, fields url.Values, sizes ...int) ([]byte, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, vs := range fields {
		for _, v := range vs {
			w.WriteField(k, v)
		}
	}
	for i, n := range sizes {
		p, err := w.CreateFormFile("documents", fmt.Sprintf("doc%d.pdf", i))
		if err != nil {
			t.Fatal(err)
		}
		p.Write(bytes.Repeat([]byte{byte('a' + i)}, n))
	}
	w.Close()
	return b.Bytes(), w.FormDataContentType()
}

// vmHWM is the peak resident set of process pid, from /proc.
func vmHWM(t *testing.T, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	var kb int64
	if _, after, ok := strings.Cut(string(b), "VmHWM:"); !ok {
		t.Fatal("no VmHWM in /proc status")
	} else if _, err := fmt.Sscan(after, &kb); err != nil {
		t.Fatal(err)
	}
	return kb << 10
}

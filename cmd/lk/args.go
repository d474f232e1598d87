package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"lk"
)

// errUsage is a command line the server does not take: main exits 2, and
// nothing has listened or written to the data folder.
var errUsage = errors.New("usage")

// parseArgs reads the command line: -version and -help answer and stop
// (done), anything else is refused with the usage. Configuration is the
// environment's, never flags, so one way to set a thing is enough.
func parseArgs(args []string, stdout io.Writer) (done bool, err error) {
	fs := flag.NewFlagSet("lk", flag.ContinueOnError)
	var usage strings.Builder
	fs.SetOutput(&usage)
	version := fs.Bool("version", false, "print the version, the commit and the Go version, and exit")
	health := fs.String("healthcheck", "", "GET this URL (such as http://127.0.0.1:8080/healthz), or with auto the /healthz of the server's own LK_ADDR, and exit 0 on a 200, 1 otherwise: the HEALTHCHECK of an image with no shell nor curl")
	fs.Usage = func() { writeUsage(&usage, fs) }
	if len(args) > 0 {
		args = args[1:]
	}
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		_, err := io.WriteString(stdout, usage.String())
		return true, err
	case err != nil:
		return true, fmt.Errorf("%w: %s", errUsage, strings.TrimSpace(usage.String()))
	case fs.NArg() > 0:
		writeUsage(&usage, fs)
		return true, fmt.Errorf("%w: unexpected argument %q\n%s", errUsage, fs.Arg(0), strings.TrimSpace(usage.String()))
	case *health == "auto":
		u, err := ownHealthURL(os.Getenv("LK_ADDR"))
		if err != nil {
			return true, err
		}
		return true, healthcheck(u, stdout)
	case *health != "":
		return true, healthcheck(*health, stdout)
	case *version:
		b := readBuild()
		_, err := fmt.Fprintf(stdout, "lk %s (commit %s) built with %s\n", b.version, b.commit, b.goVersion)
		return true, err
	}
	return false, nil
}

// ownHealthURL is the /healthz of a server listening on addr (LK_ADDR, :8080
// when empty): on loopback when it listens on every interface.
func ownHealthURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(cmp.Or(addr, ":8080"))
	if err != nil {
		return "", fmt.Errorf("-healthcheck auto: LK_ADDR %q is no host:port: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// healthcheck asks url once, within a few seconds; it reads no
// configuration and touches no data folder, so it can run beside the
// server in its container.
func healthcheck(rawURL string, stdout io.Writer) error {
	if u, err := url.Parse(rawURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: -healthcheck %q is not an http(s) URL such as http://127.0.0.1:8080/healthz", errUsage, rawURL)
	}
	c := &http.Client{Timeout: 3 * time.Second}
	res, err := c.Get(rawURL)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s", rawURL, res.Status)
	}
	_, err = fmt.Fprintf(stdout, "healthy: %s answered %s\n", rawURL, res.Status)
	return err
}

func writeUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "usage: lk [-version | -healthcheck URL|auto | -help]")
	fmt.Fprintln(w, "lk is the resort's customer personal account; it serves until SIGTERM.")
	fmt.Fprintln(w, "Flags:")
	fs.VisitAll(func(f *flag.Flag) { fmt.Fprintf(w, "  -%-26s %s\n", f.Name, f.Usage) })
	fmt.Fprintln(w, "  -help                      print this and exit")
	fmt.Fprintln(w, "Configuration (environment):")
	for _, v := range variables {
		fmt.Fprintf(w, "  %-28s %s (default %q)\n", v.name, v.doc, v.def)
	}
	fmt.Fprintln(w, "  OTEL_*                       OpenTelemetry traces, off unless OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint is set")
}

// build is what the binary knows of its own build.
type build struct {
	version, commit, goVersion string
}

// readBuild reads the module version and VCS stamp Go wrote into the
// binary. A binary built outside a git checkout has no commit: "unknown".
func readBuild() build {
	b := build{version: lk.Version(), commit: "unknown", goVersion: "unknown"}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.goVersion = info.GoVersion
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.commit = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && b.commit != "unknown" {
		b.commit += "+dirty"
	}
	return b
}

func (b build) attrs() []any {
	return []any{"version", b.version, "commit", b.commit, "go", b.goVersion}
}

// newRegistry is the registry of every metric: Go's, the process's and
// lk_build_info, whose labels say which build is running (its value is 1).
func newRegistry(b build) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	info := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "lk_build_info",
		Help:        "The running build: its version, commit and Go version as labels; always 1.",
		ConstLabels: prometheus.Labels{"version": b.version, "commit": b.commit, "goversion": b.goVersion},
	})
	info.Set(1)
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), info)
	return reg
}

package main

import (
	"io"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace/noop"

	"lk/handlers/web"
	"lk/store"
)

// recorder is a Registerer that keeps what every collector describes.
type recorder struct {
	prometheus.Registerer
	descs []*prometheus.Desc
}

func (r *recorder) Register(c prometheus.Collector) error {
	ch := make(chan *prometheus.Desc, 16)
	go func() { c.Describe(ch); close(ch) }()
	for d := range ch {
		r.descs = append(r.descs, d)
	}
	return r.Registerer.Register(c)
}

func (r *recorder) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic(err)
		}
	}
}

// registeredDescs wires the pieces as run wires them, on Redis, into a
// registry that notes what they describe, and answers what they describe.
func registeredDescs(t *testing.T) []*prometheus.Desc {
	t.Helper()
	cfg, err := loadConfig(env(map[string]string{"LK_DATA_DIR": t.TempDir(), "LK_REDIS_URL": "redis://127.0.0.1:1/0"}))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	rec := &recorder{Registerer: prometheus.NewRegistry()}
	info := newRegistry(readBuild())
	rec.MustRegister(info) // lk_build_info with the collectors of Go and the process
	client, err := newGatewayClient(cfg, "http://127.0.0.1:1/v1", rec, noop.NewTracerProvider(), log)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := store.OpenRedis(cfg.RedisURL, rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	health, err := web.NewHealth(rec)
	if err != nil {
		t.Fatal(err)
	}
	st := store.InRedis(rs, store.RefundStoreLimit)
	if _, err := newHandler(cfg, client, st, health, "", rec, noop.NewTracerProvider(), log); err != nil {
		t.Fatal(err)
	}
	return rec.descs
}

var descName = regexp.MustCompile(`fqName: "([^"]+)"`)

// docs/operations.md lists every lk_ metric the server registers, with
// each of its labels, and no other.
func TestOperationsManualListsTheMetrics(t *testing.T) {
	descs := registeredDescs(t)
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // metric → its row of the table
	for _, m := range regexp.MustCompile("(?m)^\\| `(lk_[a-z_]+)` \\|(.*)$").FindAllStringSubmatch(string(doc), -1) {
		rows[m[1]] = m[2]
	}
	labels := regexp.MustCompile(`(?:constLabels|variableLabels): \{([^}]*)\}`)
	var registered []string
	for _, d := range descs {
		s := d.String()
		n := descName.FindStringSubmatch(s)
		if n == nil || !strings.HasPrefix(n[1], "lk_") {
			continue
		}
		registered = append(registered, n[1])
		row, ok := rows[n[1]]
		if !ok {
			t.Errorf("docs/operations.md does not list %s", n[1])
			continue
		}
		for _, l := range labels.FindAllStringSubmatch(s, -1) {
			for _, kv := range strings.Split(l[1], ",") {
				label, _, _ := strings.Cut(strings.TrimSpace(kv), "=")
				if label != "" && !strings.Contains(row, "`"+label+"`") {
					t.Errorf("docs/operations.md: %s lacks its label %s", n[1], label)
				}
			}
		}
	}
	for m := range rows {
		if !slices.Contains(registered, m) {
			t.Errorf("docs/operations.md lists %s, which the server does not register", m)
		}
	}
	if len(registered) < 9 {
		t.Errorf("only %v registered: the wiring was not followed", registered)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// awaited are metrics the rules and the dashboard name before the server
// registers them, each with what will register it. The test fails once one
// is registered, so the entry goes when its metric arrives.
var awaited = map[string]string{}

// promRules is what the tests read of a Prometheus rules file.
type promRules struct {
	Groups []struct {
		Name  string
		Rules []promRule
	}
}

// promRule is an alert or a recording rule.
type promRule struct {
	Alert, Record, Expr string
	Annotations         map[string]string
}

// Every metric the alert rules and the dashboard name is one the server
// registers (or Prometheus itself makes: up), so no alert waits on a series
// that never comes.
func TestAlertsAndDashboardNameRegisteredMetrics(t *testing.T) {
	registered := map[string]bool{}
	for _, d := range registeredDescs(t) {
		if n := descName.FindStringSubmatch(d.String()); n != nil {
			registered[n[1]] = true
		}
	}
	for m, why := range awaited {
		if registered[m] {
			t.Errorf("%s is registered now: remove it from awaited (%s)", m, why)
		}
	}
	var exprs []string
	rules := readRules(t)
	for _, r := range rules {
		e := r.Expr
		for _, rec := range rules { // a recorded series is no metric of the server's
			if rec.Record != "" {
				e = strings.ReplaceAll(e, rec.Record, "")
			}
		}
		exprs = append(exprs, e)
	}
	dash := readDashboard(t)
	for _, p := range dash.Panels {
		for _, q := range p.Targets {
			exprs = append(exprs, q.Expr)
		}
	}
	for _, v := range dash.Templating.List {
		if q, ok := v.Query.(string); ok {
			exprs = append(exprs, q)
		}
	}
	metric := regexp.MustCompile(`\b(?:lk|go|process)_[a-z0-9_]+\b|\bup\b`)
	seen := 0
	for _, e := range exprs {
		for _, m := range metric.FindAllString(e, -1) {
			seen++
			base := m
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if b, ok := strings.CutSuffix(m, suffix); ok && registered[b] {
					base = b
				}
			}
			if m == "up" || registered[base] || awaited[base] != "" {
				continue
			}
			t.Errorf("%q names %s, which the server does not register", e, m)
		}
	}
	if seen < 20 {
		t.Errorf("only %d metric names found in the rules and the dashboard: the files were not read", seen)
	}
}

// dashboard is what the tests read of deploy/prometheus/dashboard.json.
type dashboard struct {
	Panels []struct {
		ID          int
		Type, Title string
		FieldConfig struct {
			Defaults struct {
				Unit string
			}
			Overrides []any
		}
		Targets []struct{ Expr string }
	}
	Templating struct {
		List []struct {
			Name  string
			Query any
		}
	}
}

func readDashboard(t *testing.T) dashboard {
	t.Helper()
	var dash dashboard
	b, err := os.ReadFile("../../deploy/prometheus/dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&dash); err != nil {
		t.Fatalf("dashboard.json: %v", err)
	}
	return dash
}

// The dashboard shows one instance, namespace or all of them as its
// variables say: every series it reads is selected by job, namespace and
// instance. Every panel has one unit for its one axis, so its queries are
// of one kind (rates, quantiles or levels, never two); the order actions,
// the admission and the running versions have panels of their own.
func TestDashboardPanelsAndVariables(t *testing.T) {
	dash := readDashboard(t)
	vars := map[string]string{}
	for _, v := range dash.Templating.List {
		q, _ := v.Query.(string)
		vars[v.Name] = q
	}
	for _, name := range []string{"datasource", "job", "namespace", "instance"} {
		if _, ok := vars[name]; !ok {
			t.Errorf("no variable %s", name)
		}
	}
	if !strings.Contains(vars["instance"], `namespace=~"$namespace"`) {
		t.Errorf("the instances offered (%q) are not the chosen namespace's", vars["instance"])
	}
	series := regexp.MustCompile(`\b((?:lk|go|process)_[a-z0-9_]+)(\{[^}]*\})?`)
	kind := func(e string) string {
		switch {
		case strings.Contains(e, "histogram_quantile("):
			return "quantile"
		case regexp.MustCompile(`\b(rate|increase|changes)\(`).MatchString(e):
			return "change"
		}
		return "level"
	}
	// unit is what a query's numbers are, where its metric's name says so:
	// a level or quantile of seconds, bytes or a ratio.
	unit := func(e string) string {
		if kind(e) == "change" {
			return ""
		}
		for _, m := range series.FindAllStringSubmatch(e, -1) {
			for suffix, u := range map[string]string{"_seconds": "s", "_seconds_bucket": "s", "_bytes": "bytes", "_ratio": "percentunit"} {
				if strings.HasSuffix(m[1], suffix) {
					return u
				}
			}
		}
		return ""
	}
	ids := map[int]bool{}
	var all []string
	for _, p := range dash.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		if p.FieldConfig.Defaults.Unit == "" || len(p.FieldConfig.Overrides) > 0 {
			t.Errorf("panel %q: unit %q with %d overrides, want one unit", p.Title, p.FieldConfig.Defaults.Unit, len(p.FieldConfig.Overrides))
		}
		kinds, units := map[string]bool{}, map[string]bool{}
		for _, q := range p.Targets {
			all = append(all, q.Expr)
			kinds[kind(q.Expr)] = true
			units[unit(q.Expr)] = true
			if u := unit(q.Expr); u != "" && u != p.FieldConfig.Defaults.Unit {
				t.Errorf("panel %q: unit %q for %s", p.Title, p.FieldConfig.Defaults.Unit, u)
			}
			for _, m := range series.FindAllStringSubmatch(q.Expr, -1) {
				for _, want := range []string{`job="$job"`, `namespace=~"$namespace"`, `instance=~"$instance"`} {
					if !strings.Contains(m[2], want) {
						t.Errorf("panel %q: %s%s is not selected by %s", p.Title, m[1], m[2], want)
					}
				}
			}
		}
		if len(kinds) > 1 || len(units) > 1 {
			t.Errorf("panel %q mixes %v %v on one axis: split it", p.Title, kinds, units)
		}
	}
	joined := strings.Join(all, "\n")
	for _, m := range []string{"lk_actions_total", "lk_admission_limit", "lk_admission_in_flight", "lk_admission_queued", "lk_http_shed_total", "lk_build_info", "lk_gateway_throttled_seconds"} {
		if !strings.Contains(joined, m) {
			t.Errorf("no panel shows %s", m)
		}
	}
}

// runbookBase is where the resort keeps this repository, the start of every
// alert's runbook_url.
const runbookBase = "https://git.resort.example/lk/-/blob/main/"

// readRules is every rule of deploy/prometheus/rules.yaml, recording
// rules too.
func readRules(t *testing.T) []promRule {
	t.Helper()
	var rules promRules
	b, err := os.ReadFile("../../deploy/prometheus/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &rules); err != nil {
		t.Fatal(err)
	}
	var out []promRule
	for _, g := range rules.Groups {
		out = append(out, g.Rules...)
	}
	return out
}

func alertRules(t *testing.T) []promRule {
	t.Helper()
	return slices.DeleteFunc(readRules(t), func(r promRule) bool { return r.Alert == "" })
}

// Every alert fires in a test of promtool test rules, says what it saw
// (description) and links its runbook line in docs/operations.md
// (runbook_url, to the line's anchor); its aggregations keep the
// namespace. At least one alert reads two windows of an SLO's burn rate.
func TestEveryAlertIsTestedAndHasARunbook(t *testing.T) {
	var tests struct {
		Tests []struct {
			AlertRuleTest []struct {
				Alertname string
				ExpAlerts []any `yaml:"exp_alerts"`
			} `yaml:"alert_rule_test"`
		}
	}
	b, err := os.ReadFile("../../deploy/prometheus/rules.test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &tests); err != nil {
		t.Fatal(err)
	}
	var fired []string
	for _, c := range tests.Tests {
		for _, a := range c.AlertRuleTest {
			if len(a.ExpAlerts) > 0 {
				fired = append(fired, a.Alertname)
			}
		}
	}
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	rules := alertRules(t)
	burns := 0
	if len(rules) < 8 {
		t.Errorf("%d alerts, want at least 8", len(rules))
	}
	for _, r := range rules {
		if !slices.Contains(fired, r.Alert) {
			t.Errorf("no test in deploy/prometheus/rules.test.yaml sees %s fire", r.Alert)
		}
		anchor := strings.ToLower(r.Alert)
		if !regexp.MustCompile("(?m)^\\| <a id=\"" + anchor + "\"></a>`" + r.Alert + "` \\|").Match(doc) {
			t.Errorf("docs/operations.md has no runbook line for %s with the anchor %s", r.Alert, anchor)
		}
		if want := runbookBase + "docs/operations.md#" + anchor; r.Annotations["runbook_url"] != want {
			t.Errorf("%s: runbook_url %q, want %s", r.Alert, r.Annotations["runbook_url"], want)
		}
		if r.Annotations["description"] == "" || r.Annotations["summary"] == "" {
			t.Errorf("%s: no summary or description", r.Alert)
		}
		for _, by := range regexp.MustCompile(`by \(([^)]*)\)`).FindAllStringSubmatch(r.Expr, -1) {
			if !strings.Contains(by[1], "namespace") {
				t.Errorf("%s: %q drops the namespace", r.Alert, by[0])
			}
		}
		if regexp.MustCompile(`:ratio_rate\w+ > .*\n\s*and \S+:ratio_rate\w+ >`).MatchString(r.Expr) {
			burns++
		}
	}
	if burns == 0 {
		t.Error("no alert reads two windows of an SLO's burn rate")
	}
}

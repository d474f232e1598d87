package main

import (
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
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
		Templating struct {
			List []struct{ Query any }
		}
	}
	b, err := os.ReadFile("../../deploy/prometheus/dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatal(err)
	}
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("dashboard panel %q has no query", p.Title)
		}
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

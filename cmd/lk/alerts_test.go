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
		Rules []struct {
			Alert string
			Expr  string
		}
	}
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
	for _, r := range alertRules(t) {
		exprs = append(exprs, r.Expr)
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

func alertRules(t *testing.T) []struct{ Alert, Expr string } {
	t.Helper()
	var rules promRules
	b, err := os.ReadFile("../../deploy/prometheus/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &rules); err != nil {
		t.Fatal(err)
	}
	var out []struct{ Alert, Expr string }
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			out = append(out, struct{ Alert, Expr string }{r.Alert, r.Expr})
		}
	}
	return out
}

// Every alert fires in a test of promtool test rules, and has its runbook
// line in docs/operations.md.
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
	if len(rules) < 8 {
		t.Errorf("%d alerts, want at least 8", len(rules))
	}
	for _, r := range rules {
		if !slices.Contains(fired, r.Alert) {
			t.Errorf("no test in deploy/prometheus/rules.test.yaml sees %s fire", r.Alert)
		}
		if !regexp.MustCompile("(?m)^\\| `" + r.Alert + "` \\|").Match(doc) {
			t.Errorf("docs/operations.md has no runbook line for %s", r.Alert)
		}
	}
}

package deploy

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// object is one rendered Kubernetes object: its kind and name, and its
// value decoded into the API's own type.
type object struct {
	kind, name string
	value      any
}

// The Prometheus Operator's types are not in k8s.io/api: the fields the
// kit uses are decoded into their shapes (monitoring.coreos.com/v1), so a
// misspelt one is refused as with the API's own types.
type serviceMonitor struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Metadata   map[string]any     `json:"metadata"`
	Spec       serviceMonitorSpec `json:"spec"`
}

type serviceMonitorSpec struct {
	JobLabel string `json:"jobLabel"`
	Selector struct {
		MatchLabels map[string]string `json:"matchLabels"`
	} `json:"selector"`
	Endpoints []struct {
		Port          string `json:"port"`
		Path          string `json:"path"`
		Interval      string `json:"interval"`
		Authorization struct {
			Type        string `json:"type"`
			Credentials struct {
				Name string `json:"name"`
				Key  string `json:"key"`
			} `json:"credentials"`
		} `json:"authorization"`
	} `json:"endpoints"`
}

type prometheusRule struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata"`
	Spec       struct {
		Groups []struct {
			Name  string `json:"name"`
			Rules []struct {
				Alert       string            `json:"alert,omitempty"`
				Record      string            `json:"record,omitempty"`
				Expr        string            `json:"expr"`
				For         string            `json:"for,omitempty"`
				Labels      map[string]string `json:"labels,omitempty"`
				Annotations map[string]string `json:"annotations,omitempty"`
			} `json:"rules"`
		} `json:"groups"`
	} `json:"spec"`
}

// types maps apiVersion/kind to a new value of its type.
var types = map[string]func() any{
	"v1/ServiceAccount":                       func() any { return &corev1.ServiceAccount{} },
	"v1/ConfigMap":                            func() any { return &corev1.ConfigMap{} },
	"v1/Service":                              func() any { return &corev1.Service{} },
	"apps/v1/Deployment":                      func() any { return &appsv1.Deployment{} },
	"policy/v1/PodDisruptionBudget":           func() any { return &policyv1.PodDisruptionBudget{} },
	"autoscaling/v2/HorizontalPodAutoscaler":  func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"networking.k8s.io/v1/NetworkPolicy":      func() any { return &networkingv1.NetworkPolicy{} },
	"monitoring.coreos.com/v1/ServiceMonitor": func() any { return &serviceMonitor{} },
	"monitoring.coreos.com/v1/PrometheusRule": func() any { return &prometheusRule{} },
}

// overlays are the kit's overlays, each a folder of kubernetes/overlays.
func overlays(t *testing.T) []string {
	t.Helper()
	dirs, _ := filepath.Glob("kubernetes/overlays/*/kustomization.yaml")
	if len(dirs) < 2 {
		t.Fatalf("%d overlays in kubernetes/overlays, want at least 2", len(dirs))
	}
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	return dirs
}

// render is kubectl kustomize of dir, each object decoded strictly into
// its API type: an unknown field, kind or version fails the test.
func render(t *testing.T, dir string) []object {
	t.Helper()
	objs, ok := rendered(t, dir)
	if !ok {
		t.Skip("kubectl is not installed: the kit is rendered by kubectl kustomize (kubectl v1.32 renders it)")
	}
	return objs
}

// rendered is render's objects, and false when kubectl is not installed.
func rendered(t *testing.T, dir string) ([]object, bool) {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		return nil, false
	}
	out, err := exec.Command("kubectl", "kustomize", dir).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("kubectl kustomize %s: %v\n%s", dir, err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var objs []object
	dec := yaml.NewDecoder(bytes.NewReader(out))
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		kind, _ := doc["kind"].(string)
		meta, _ := doc["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		mk, ok := types[doc["apiVersion"].(string)+"/"+kind]
		if !ok {
			t.Errorf("%s: %s %s of apiVersion %v is no type the test knows", dir, kind, name, doc["apiVersion"])
			continue
		}
		v := mk()
		jd := json.NewDecoder(bytes.NewReader(raw))
		jd.DisallowUnknownFields()
		if err := jd.Decode(v); err != nil {
			t.Errorf("%s: %s %s: %v", dir, kind, name, err)
			continue
		}
		objs = append(objs, object{kind, name, v})
	}
	return objs, true
}

// checkDeployment checks the rendered Deployment against what lk does with
// its settings (the ConfigMaps it reads): ports, probes, the stop's times,
// the memory limits, the folders; the probes' paths go to paths.
func checkDeployment(t *testing.T, dir string, objs []object, paths *[]string) {
	t.Helper()
	where := dir + " Deployment"
	cms := map[string]map[string]string{}
	for _, cm := range find[*corev1.ConfigMap](objs, "ConfigMap") {
		cms[cm.Name] = cm.Data
	}
	for _, d := range find[*appsv1.Deployment](objs, "Deployment") {
		pod := d.Spec.Template.Spec
		if len(pod.Containers) != 1 {
			t.Errorf("%s: %d containers", where, len(pod.Containers))
		}
		for _, c := range pod.Containers {
			env := settings{}
			for _, from := range c.EnvFrom {
				if from.ConfigMapRef != nil {
					maps.Copy(env, cms[from.ConfigMapRef.Name])
				}
			}
			for _, e := range c.Env {
				env[e.Name] = e.Value
			}
			checkSettings(t, where, env)
			var mounts []string
			for _, m := range c.VolumeMounts {
				mounts = append(mounts, m.MountPath)
			}
			checkPaths(t, where, env, mounts)
			ports := map[string]int{}
			for _, p := range c.Ports {
				ports[p.Name] = int(p.ContainerPort)
			}
			if ports["http"] != port(t, env["LK_ADDR"]) || ports["debug"] != port(t, env["LK_DEBUG_ADDR"]) {
				t.Errorf("%s: container ports %v, LK_ADDR %s, LK_DEBUG_ADDR %s", where, ports, env["LK_ADDR"], env["LK_DEBUG_ADDR"])
			}
			for what, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe, "startup": c.StartupProbe} {
				if p == nil || p.HTTPGet == nil {
					t.Errorf("%s: no %s probe over HTTP", where, what)
					continue
				}
				if p.HTTPGet.Port.StrVal != "http" {
					t.Errorf("%s: the %s probe asks port %v, not http", where, what, p.HTTPGet.Port.String())
				}
				*paths = append(*paths, p.HTTPGet.Path)
			}
			if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.LivenessProbe == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
				t.Errorf("%s: readiness must ask /readyz, liveness /healthz", where)
			}
			var preStop time.Duration
			if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
				preStop = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
			} else {
				t.Errorf("%s: no preStop sleep", where)
			}
			need := preStop + dur(t, env["LK_SHUTDOWN_DRAIN"]) + dur(t, env["LK_SHUTDOWN_TIMEOUT"])
			if pod.TerminationGracePeriodSeconds == nil || time.Duration(*pod.TerminationGracePeriodSeconds)*time.Second <= need {
				t.Errorf("%s: terminationGracePeriodSeconds %v is not above preStop + drain + shutdown (%s)", where, pod.TerminationGracePeriodSeconds, need)
			}
			lim := c.Resources.Limits.Memory()
			if soft := bytesOf(t, env["GOMEMLIMIT"]); soft <= 0 || lim == nil || soft >= lim.Value() {
				t.Errorf("%s: GOMEMLIMIT %s is not under the memory limit %v", where, env["GOMEMLIMIT"], lim)
			}
		}
	}
}

func find[T any](objs []object, kind string) []T {
	var out []T
	for _, o := range objs {
		if o.kind == kind {
			out = append(out, o.value.(T))
		}
	}
	return out
}

// Every overlay renders into objects the Kubernetes API accepts field by
// field, and carries what a platform team expects: the instances scaled on
// CPU and spread over nodes, a NetworkPolicy (customers through the ingress
// controller, the debug port from monitoring alone), no service account
// token, the image of this release and never :latest, settings that exist.
func TestKubernetesOverlaysRender(t *testing.T) {
	version, err := os.ReadFile("../VERSION")
	if err != nil {
		t.Fatal(err)
	}
	release := strings.TrimSpace(string(version))
	for _, dir := range overlays(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			objs := render(t, dir)
			deps := find[*appsv1.Deployment](objs, "Deployment")
			if len(deps) != 1 {
				t.Fatalf("%d Deployments, want 1", len(deps))
			}
			d := deps[0]
			pod := d.Spec.Template.Spec

			// The image: a release tag, this one.
			for _, c := range pod.Containers {
				_, tag, ok := strings.Cut(c.Image[strings.LastIndex(c.Image, "/")+1:], ":")
				if !ok || tag == "latest" || tag != release {
					t.Errorf("container %s: image %q, want one tagged %s (VERSION)", c.Name, c.Image, release)
				}
			}

			// No token; the account exists.
			if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
				t.Error("the pod mounts its service account token")
			}
			sas := find[*corev1.ServiceAccount](objs, "ServiceAccount")
			if pod.ServiceAccountName == "" || !slices.ContainsFunc(sas, func(s *corev1.ServiceAccount) bool {
				return s.Name == pod.ServiceAccountName && s.AutomountServiceAccountToken != nil && !*s.AutomountServiceAccountToken
			}) {
				t.Errorf("service account %q is not rendered with automountServiceAccountToken: false", pod.ServiceAccountName)
			}

			// Spread over nodes, hard.
			if !slices.ContainsFunc(pod.TopologySpreadConstraints, func(c corev1.TopologySpreadConstraint) bool {
				return c.TopologyKey == "kubernetes.io/hostname" && c.WhenUnsatisfiable == corev1.DoNotSchedule &&
					c.LabelSelector != nil && reflect.DeepEqual(c.LabelSelector.MatchLabels, d.Spec.Selector.MatchLabels)
			}) {
				t.Error("no topology spread of the instances over nodes")
			}

			// Scaled on CPU, from two at least; the Deployment leaves replicas to it.
			hpas := find[*autoscalingv2.HorizontalPodAutoscaler](objs, "HorizontalPodAutoscaler")
			if len(hpas) != 1 || hpas[0].Spec.ScaleTargetRef.Name != d.Name || hpas[0].Spec.ScaleTargetRef.Kind != "Deployment" {
				t.Fatalf("no HorizontalPodAutoscaler of Deployment %s", d.Name)
			}
			h := hpas[0]
			if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 2 || h.Spec.MaxReplicas < *h.Spec.MinReplicas {
				t.Errorf("HPA replicas %v..%d, want from 2 at least", h.Spec.MinReplicas, h.Spec.MaxReplicas)
			}
			if len(h.Spec.Metrics) != 1 || h.Spec.Metrics[0].Resource == nil || h.Spec.Metrics[0].Resource.Name != corev1.ResourceCPU {
				t.Errorf("HPA metrics %+v, want CPU", h.Spec.Metrics)
			}
			if d.Spec.Replicas != nil {
				t.Errorf("the Deployment sets %d replicas, which every apply would reset under the HPA", *d.Spec.Replicas)
			}

			// Settings: every ConfigMap the pod reads is rendered.
			cms := find[*corev1.ConfigMap](objs, "ConfigMap")
			for _, c := range pod.Containers {
				for _, from := range c.EnvFrom {
					if from.ConfigMapRef == nil || !slices.ContainsFunc(cms, func(m *corev1.ConfigMap) bool { return m.Name == from.ConfigMapRef.Name }) {
						t.Errorf("container %s reads a ConfigMap that is not rendered: %+v", c.Name, from)
					}
				}
			}

			// Network: http from the ingress controller, debug from monitoring, nothing else.
			ports := map[string]bool{}
			for _, p := range pod.Containers[0].Ports {
				ports[p.Name] = true
			}
			nps := find[*networkingv1.NetworkPolicy](objs, "NetworkPolicy")
			if len(nps) != 1 {
				t.Fatalf("%d NetworkPolicies, want 1", len(nps))
			}
			np := nps[0]
			if !reflect.DeepEqual(np.Spec.PodSelector.MatchLabels, d.Spec.Selector.MatchLabels) || !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) {
				t.Error("the NetworkPolicy does not select the instances for ingress")
			}
			allowed := map[string]string{} // port → namespace allowed
			for _, rule := range np.Spec.Ingress {
				if len(rule.From) != 1 || rule.From[0].NamespaceSelector == nil || len(rule.Ports) == 0 {
					t.Errorf("a NetworkPolicy rule not bound to one namespace and its ports: %+v", rule)
					continue
				}
				ns := rule.From[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"]
				for _, p := range rule.Ports {
					if p.Port == nil || !ports[p.Port.StrVal] {
						t.Errorf("the NetworkPolicy opens %v, no named port of the container", p.Port)
						continue
					}
					allowed[p.Port.StrVal] = ns
				}
			}
			if allowed["http"] == "" || allowed["debug"] == "" || allowed["http"] == allowed["debug"] {
				t.Errorf("NetworkPolicy opens %v; want http from the ingress controller's namespace, debug from monitoring's alone", allowed)
			}
			checkEgress(t, np)

			// A node drain takes a share of the instances, as many as they are.
			pdbs := find[*policyv1.PodDisruptionBudget](objs, "PodDisruptionBudget")
			if len(pdbs) != 1 || pdbs[0].Spec.MinAvailable != nil || pdbs[0].Spec.MaxUnavailable == nil ||
				!reflect.DeepEqual(pdbs[0].Spec.Selector.MatchLabels, d.Spec.Selector.MatchLabels) {
				t.Errorf("PodDisruptionBudgets %+v: want one of the instances with maxUnavailable, no minAvailable", pdbs)
			}

			// Monitoring: scrape annotations, or a ServiceMonitor on the debug port.
			sms := find[*serviceMonitor](objs, "ServiceMonitor")
			if pod := d.Spec.Template.Annotations; pod["prometheus.io/scrape"] != "true" && len(sms) == 0 {
				t.Error("nothing scrapes the instances: no scrape annotations, no ServiceMonitor")
			}
			for _, sm := range sms {
				svcs := find[*corev1.Service](objs, "Service")
				if !slices.ContainsFunc(svcs, func(s *corev1.Service) bool {
					return labelsMatch(sm.Spec.Selector.MatchLabels, s.Labels) && slices.ContainsFunc(s.Spec.Ports, func(p corev1.ServicePort) bool {
						return p.Name == sm.Spec.Endpoints[0].Port && p.TargetPort.StrVal == "debug"
					})
				}) {
					t.Errorf("ServiceMonitor %s selects no Service with port %s to the debug port", sm.Metadata["name"], sm.Spec.Endpoints[0].Port)
				}
				for _, e := range sm.Spec.Endpoints {
					if a := e.Authorization; a.Type != "Bearer" || a.Credentials.Name != "lk" || a.Credentials.Key != "debug-token" {
						t.Errorf("ServiceMonitor %s endpoint %s: authorization %+v, want Bearer from the Secret lk's debug-token", sm.Metadata["name"], e.Port, a)
					}
				}
			}
			for _, pr := range find[*prometheusRule](objs, "PrometheusRule") {
				checkSameRules(t, pr)
			}
		})
	}
}

// checkEgress: the instances reach DNS, the provider's gateway (by its
// addresses, never the whole internet), Redis and the collector, on their
// ports alone, and nothing else.
func checkEgress(t *testing.T, np *networkingv1.NetworkPolicy) {
	t.Helper()
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) {
		t.Fatal("the NetworkPolicy leaves egress open")
	}
	reached := map[int32]bool{}
	for _, rule := range np.Spec.Egress {
		if len(rule.To) == 0 || len(rule.Ports) == 0 {
			t.Errorf("an egress rule open to every peer or port: %+v", rule)
		}
		for _, peer := range rule.To {
			if b := peer.IPBlock; b != nil && (strings.HasSuffix(b.CIDR, "/0") || b.CIDR == "192.0.2.0/24") {
				t.Errorf("egress to %s: the whole internet, or the base's placeholder", b.CIDR)
			}
			if peer.IPBlock == nil && (peer.NamespaceSelector == nil || peer.PodSelector == nil) {
				t.Errorf("egress to %+v: not bound to a namespace's pods", peer)
			}
		}
		for _, p := range rule.Ports {
			reached[p.Port.IntVal] = true
		}
	}
	for port, what := range map[int32]string{53: "DNS", 443: "the provider's gateway", 6379: "Redis", 26379: "Redis's Sentinels", 4317: "the collector"} {
		if !reached[port] {
			t.Errorf("no egress to %s (port %d)", what, port)
		}
	}
	if len(reached) != 6 {
		t.Errorf("egress reaches ports %v, want DNS, 443, Redis's and the collector's alone", reached)
	}
}

func labelsMatch(want, have map[string]string) bool {
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return len(want) > 0
}

// The PrometheusRule carries deploy/prometheus/rules.yaml's groups, unchanged.
func checkSameRules(t *testing.T, pr *prometheusRule) {
	t.Helper()
	b, err := os.ReadFile("prometheus/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := yaml.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(pr.Spec.Groups)
	want, _ := json.Marshal(file["groups"])
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal(want, &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("the PrometheusRule's groups differ from deploy/prometheus/rules.yaml:\n%s\n%s", got, want)
	}
}

// Every overlay sets the site's own values; none is left at the base's.
func TestKubernetesOverlaysSetTheSite(t *testing.T) {
	for _, dir := range overlays(t) {
		objs := render(t, dir)
		for _, np := range find[*networkingv1.NetworkPolicy](objs, "NetworkPolicy") {
			if b, _ := json.Marshal(np.Spec); strings.Contains(string(b), "set-in-the-overlay") || strings.Contains(string(b), "ingress-nginx") {
				t.Errorf("%s: the NetworkPolicy keeps a namespace of the base's, or the retired ingress-nginx: %s", dir, b)
			}
		}
		for _, cm := range find[*corev1.ConfigMap](objs, "ConfigMap") {
			for _, k := range []string{"LK_GATEWAY_URL", "LK_PUBLIC_URL", "LK_REDIS_URL", "LK_TRUSTED_PROXIES"} {
				if cm.Data[k] == "" {
					t.Errorf("%s: %s is not set", dir, k)
				}
			}
			if p := cm.Data["LK_TRUSTED_PROXIES"]; p == "10.0.0.0/8" || p == "0.0.0.0/0" {
				t.Errorf("%s: LK_TRUSTED_PROXIES %s lets any pod claim any client address", dir, p)
			}
		}
	}
}

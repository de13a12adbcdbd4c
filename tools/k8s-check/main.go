// k8s-check renders each kustomize overlay and checks every object against the Kubernetes API
// types (strict decoding: an unknown or misspelled field is an error), then the rules Kickstand's
// manifests must keep: probes on /readyz and /healthz, resource requests and limits, a Service per
// Deployment or StatefulSet, volume mounts that name a volume, an autoscaler and a disruption budget
// for bot-runner, an ingress for the gateway. KEDA's ScaledObject and TriggerAuthentication are
// checked the same way (keda.go): bot-runner scales on its consumer lag, with CPU as a second
// trigger, and no HPA of its own beside. Engine credentials come from the kickstand-engines Secret,
// never from the ConfigMap. The services behind the gateway take connections to their HTTP port
// from the gateway only (network.go).
// It needs no cluster and no network beyond the Go module proxy that built it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// workload is what the rules look at in a Deployment or a StatefulSet.
type workload struct {
	kind     string
	replicas *int32
	template corev1.PodTemplateSpec
}

type rendered struct {
	workloads  map[string]workload
	claims     map[string][]corev1.PersistentVolumeClaim
	services   map[string]corev1.Service
	hpas       map[string]autoscalingv2.HorizontalPodAutoscaler
	pdbs       map[string]policyv1.PodDisruptionBudget
	ingresses  map[string]networkingv1.Ingress
	policies   map[string]networkingv1.NetworkPolicy
	scaled     map[string]scaledObject
	auths      map[string]triggerAuthentication
	configMaps map[string]corev1.ConfigMap
	// "name" for each rendered Secret, "name/key" for each of its keys
	secrets map[string]bool
	counts  map[string]int
}

func decodeStrict(raw []byte, into any) error {
	return yaml.UnmarshalStrict(raw, into)
}

func render(dir string) (*rendered, error) {
	kustomizer := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := kustomizer.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	out := &rendered{
		workloads:  map[string]workload{},
		claims:     map[string][]corev1.PersistentVolumeClaim{},
		services:   map[string]corev1.Service{},
		hpas:       map[string]autoscalingv2.HorizontalPodAutoscaler{},
		pdbs:       map[string]policyv1.PodDisruptionBudget{},
		ingresses:  map[string]networkingv1.Ingress{},
		policies:   map[string]networkingv1.NetworkPolicy{},
		scaled:     map[string]scaledObject{},
		auths:      map[string]triggerAuthentication{},
		configMaps: map[string]corev1.ConfigMap{},
		secrets:    map[string]bool{},
		counts:     map[string]int{},
	}
	for _, resource := range resources.Resources() {
		raw, err := resource.AsYAML()
		if err != nil {
			return nil, err
		}
		kind, name := resource.GetKind(), resource.GetName()
		where := fmt.Sprintf("%s/%s", kind, name)
		out.counts[kind]++
		switch kind {
		case "Deployment":
			var d appsv1.Deployment
			if err := decodeStrict(raw, &d); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.workloads[name] = workload{kind: kind, replicas: d.Spec.Replicas, template: d.Spec.Template}
		case "StatefulSet":
			var s appsv1.StatefulSet
			if err := decodeStrict(raw, &s); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.workloads[name] = workload{kind: kind, replicas: s.Spec.Replicas, template: s.Spec.Template}
			out.claims[name] = s.Spec.VolumeClaimTemplates
		case "Service":
			var s corev1.Service
			if err := decodeStrict(raw, &s); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.services[name] = s
		case "ConfigMap":
			var c corev1.ConfigMap
			if err := decodeStrict(raw, &c); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.configMaps[name] = c
		case "Secret":
			var s corev1.Secret
			if err := decodeStrict(raw, &s); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.secrets[name] = true
			for key := range s.Data {
				out.secrets[name+"/"+key] = true
			}
			for key := range s.StringData {
				out.secrets[name+"/"+key] = true
			}
		case "ScaledObject":
			var so scaledObject
			if err := decodeStrict(raw, &so); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.scaled[name] = so
		case "TriggerAuthentication":
			var ta triggerAuthentication
			if err := decodeStrict(raw, &ta); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.auths[name] = ta
		case "HorizontalPodAutoscaler":
			var h autoscalingv2.HorizontalPodAutoscaler
			if err := decodeStrict(raw, &h); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.hpas[name] = h
		case "PodDisruptionBudget":
			var p policyv1.PodDisruptionBudget
			if err := decodeStrict(raw, &p); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.pdbs[name] = p
		case "Ingress":
			var i networkingv1.Ingress
			if err := decodeStrict(raw, &i); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.ingresses[name] = i
		case "NetworkPolicy":
			var p networkingv1.NetworkPolicy
			if err := decodeStrict(raw, &p); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.policies[name] = p
		default:
			return nil, fmt.Errorf("%s: a kind this check does not know; add it to k8s-check", where)
		}
	}
	return out, nil
}

func check(r *rendered) []string {
	var problems []string
	for name, w := range r.workloads {
		containers := w.template.Spec.Containers
		if len(containers) == 0 {
			problems = append(problems, fmt.Sprintf("%s/%s: no container", w.kind, name))
		}
		volumes := map[string]bool{}
		for _, volume := range w.template.Spec.Volumes {
			volumes[volume.Name] = true
		}
		for _, claim := range r.claims[name] {
			volumes[claim.Name] = true
		}
		for _, c := range containers {
			where := fmt.Sprintf("%s/%s container %s", w.kind, name, c.Name)
			for _, mount := range c.VolumeMounts {
				if !volumes[mount.Name] {
					problems = append(problems, fmt.Sprintf("%s: mounts %s, which is no volume of the pod", where, mount.Name))
				}
			}
			if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
				problems = append(problems, where+": readiness probe must GET /readyz")
			}
			if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
				problems = append(problems, where+": liveness probe must GET /healthz")
			}
			for _, resource := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				if _, ok := c.Resources.Requests[resource]; !ok {
					problems = append(problems, fmt.Sprintf("%s: no %s request", where, resource))
				}
				if _, ok := c.Resources.Limits[resource]; !ok {
					problems = append(problems, fmt.Sprintf("%s: no %s limit", where, resource))
				}
			}
			if len(c.Args) != 1 || c.Args[0] != name {
				problems = append(problems, where+": args must name the part to run ("+name+")")
			}
		}
		service, ok := r.services[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s/%s: no Service of the same name", w.kind, name))
		} else {
			for key, value := range service.Spec.Selector {
				if w.template.Labels[key] != value {
					problems = append(problems, fmt.Sprintf("Service/%s: selector %s=%s does not select the pods", name, key, value))
				}
			}
		}
	}
	problems = append(problems, checkScaling(r)...)
	problems = append(problems, checkEngineSettings(r)...)
	problems = append(problems, checkNetworkPolicies(r)...)
	if _, ok := r.pdbs["bot-runner"]; !ok {
		problems = append(problems, "bot-runner: no PodDisruptionBudget")
	}
	if len(r.ingresses) == 0 {
		problems = append(problems, "no Ingress for the gateway")
	}
	for name, ingress := range r.ingresses {
		for _, rule := range ingress.Spec.Rules {
			for _, path := range rule.HTTP.Paths {
				if path.Backend.Service == nil || path.Backend.Service.Name != "gateway" {
					problems = append(problems, fmt.Sprintf("Ingress/%s: every path must go to the gateway", name))
				}
			}
		}
	}
	return problems
}

// bot-runner scales on the lag of its consumer group on chat.received, CPU as the second trigger;
// KEDA owns the HPA it makes, so no other HPA and no replica count in the Deployment.
func checkScaling(r *rendered) []string {
	var problems []string
	for name, so := range r.scaled {
		problems = append(problems, checkScaledObject(name, so, r.auths)...)
	}
	for name, a := range r.auths {
		problems = append(problems, checkTriggerAuthentication(name, a, r.secrets)...)
	}
	scaledTargets := map[string]bool{}
	for _, so := range r.scaled {
		if so.Spec.ScaleTargetRef != nil {
			scaledTargets[so.Spec.ScaleTargetRef.Name] = true
		}
	}
	for name, hpa := range r.hpas {
		if scaledTargets[hpa.Spec.ScaleTargetRef.Name] {
			problems = append(problems, fmt.Sprintf("HorizontalPodAutoscaler/%s: %s is scaled by a ScaledObject, whose HPA this one would fight", name, hpa.Spec.ScaleTargetRef.Name))
		}
	}
	for target := range scaledTargets {
		if w, ok := r.workloads[target]; ok && w.replicas != nil {
			problems = append(problems, fmt.Sprintf("%s/%s: sets replicas although a ScaledObject scales it (each apply would reset them)", w.kind, target))
		}
	}
	so, ok := r.scaled["bot-runner"]
	if !ok || so.Spec.ScaleTargetRef == nil || so.Spec.ScaleTargetRef.Name != "bot-runner" {
		return append(problems, "bot-runner: no ScaledObject targeting it")
	}
	var hasLag, hasCPU bool
	for _, t := range so.Spec.Triggers {
		switch t.Type {
		case "kafka":
			hasLag = t.Metadata["consumerGroup"] == "bot-runner.chat.received" && t.Metadata["topic"] == "chat.received"
		case "cpu":
			hasCPU = true
		}
	}
	if !hasLag {
		problems = append(problems, "ScaledObject/bot-runner: no kafka trigger on the lag of group bot-runner.chat.received (kafkaGroupId) on chat.received")
	}
	if !hasCPU {
		problems = append(problems, "ScaledObject/bot-runner: no cpu trigger (the fallback signal)")
	}
	partitions, err := strconv.Atoi(r.configMaps["kickstand-config"].Data["KAFKA_PARTITIONS"])
	if err != nil || partitions <= 12 {
		problems = append(problems, "ConfigMap/kickstand-config: KAFKA_PARTITIONS must be a number above 12")
	} else if so.Spec.MaxReplicaCount == nil || int(*so.Spec.MaxReplicaCount) > partitions {
		problems = append(problems, fmt.Sprintf("ScaledObject/bot-runner: maxReplicaCount must be set and at most KAFKA_PARTITIONS (%d): more pods would sit idle", partitions))
	}
	return problems
}

// Credentials are Secrets: every part reads kickstand-engines, the ConfigMap holds none.
func checkEngineSettings(r *rendered) []string {
	var problems []string
	config, ok := r.configMaps["kickstand-config"]
	if !ok {
		return append(problems, "no ConfigMap kickstand-config")
	}
	for key := range config.Data {
		if key == "MONGO_URL" || strings.Contains(key, "PASSWORD") || strings.Contains(key, "SASL_USERNAME") {
			problems = append(problems, "ConfigMap/kickstand-config: "+key+" is a credential: it belongs in the kickstand-engines Secret")
		}
	}
	if config.Data["KAFKA_REPLICATION_FACTOR"] == "" {
		problems = append(problems, "ConfigMap/kickstand-config: KAFKA_REPLICATION_FACTOR is not set")
	}
	for name, w := range r.workloads {
		for _, c := range w.template.Spec.Containers {
			reads := false
			for _, from := range c.EnvFrom {
				if from.SecretRef != nil && from.SecretRef.Name == "kickstand-engines" {
					reads = true
				}
			}
			if !reads {
				problems = append(problems, fmt.Sprintf("%s/%s container %s: does not read the kickstand-engines Secret (envFrom)", w.kind, name, c.Name))
			}
		}
	}
	return problems
}

// printRendered writes one overlay's objects as kustomize renders them, for kubeconform to read.
func printRendered(dir string) error {
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	out, err := resources.AsYaml()
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-render" {
		if err := printRendered(os.Args[2]); err != nil {
			fmt.Fprintf(os.Stderr, "k8s-check: %v\n", err)
			os.Exit(1)
		}
		return
	}
	root := "k8s/overlays"
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	overlays, err := filepath.Glob(filepath.Join(root, "*"))
	if err != nil || len(overlays) == 0 {
		fmt.Fprintf(os.Stderr, "k8s-check: no overlays under %s\n", root)
		os.Exit(2)
	}
	failed := false
	for _, overlay := range overlays {
		r, err := render(overlay)
		if err != nil {
			fmt.Printf("%s: %v\n", overlay, err)
			failed = true
			continue
		}
		if problems := check(r); len(problems) > 0 {
			sort.Strings(problems)
			fmt.Printf("%s:\n  %s\n", overlay, strings.Join(problems, "\n  "))
			failed = true
			continue
		}
		kinds := make([]string, 0, len(r.counts))
		total := 0
		for kind, count := range r.counts {
			kinds = append(kinds, fmt.Sprintf("%s %d", kind, count))
			total += count
		}
		sort.Strings(kinds)
		fmt.Printf("%s: %d objects valid (%s)\n", overlay, total, strings.Join(kinds, ", "))
	}
	if failed {
		os.Exit(1)
	}
}

package main

import (
	"fmt"
	"sort"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// behindGateway are the services only the gateway may call: a request that reached one directly
// would skip the gateway's checks (its route table, its rate limits).
var behindGateway = []string{"auth", "commands", "kick-link", "bot-runner", "games", "realtime"}

const nameLabel = "app.kubernetes.io/name"

// checkNetworkPolicies: every service behind the gateway is selected by a NetworkPolicy, and no
// rule of such a policy opens its http port to anything but the gateway's pods.
func checkNetworkPolicies(r *rendered) []string {
	var problems []string
	names := make([]string, 0, len(r.policies))
	for name := range r.policies {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, service := range behindGateway {
		w, ok := r.workloads[service]
		if !ok {
			continue
		}
		podLabels := labels.Set(w.template.Labels)
		covered := false
		for _, name := range names {
			policy := r.policies[name]
			selector, err := metav1.LabelSelectorAsSelector(&policy.Spec.PodSelector)
			if err != nil {
				problems = append(problems, fmt.Sprintf("NetworkPolicy/%s: pod selector: %v", name, err))
				continue
			}
			if !selector.Matches(podLabels) {
				continue
			}
			covered = true
			for _, rule := range policy.Spec.Ingress {
				if opensHTTP(rule) && !onlyFromGateway(rule) {
					problems = append(problems, fmt.Sprintf("NetworkPolicy/%s: opens %s's http port to more than the gateway", name, service))
				}
			}
		}
		if !covered {
			problems = append(problems, fmt.Sprintf("%s/%s: no NetworkPolicy selects it (only the gateway may reach it)", w.kind, service))
		}
	}
	return problems
}

// opensHTTP: the rule names the http port, or no port at all (then every port).
func opensHTTP(rule networkingv1.NetworkPolicyIngressRule) bool {
	if len(rule.Ports) == 0 {
		return true
	}
	for _, port := range rule.Ports {
		if port.Port == nil || port.Port.StrVal == "http" {
			return true
		}
	}
	return false
}

// onlyFromGateway: every peer is a pod selector for the gateway, in the policy's own namespace.
func onlyFromGateway(rule networkingv1.NetworkPolicyIngressRule) bool {
	if len(rule.From) == 0 {
		return false
	}
	for _, peer := range rule.From {
		if peer.IPBlock != nil || peer.NamespaceSelector != nil || peer.PodSelector == nil {
			return false
		}
		if len(peer.PodSelector.MatchExpressions) > 0 || peer.PodSelector.MatchLabels[nameLabel] != "gateway" {
			return false
		}
	}
	return true
}

package main

// KEDA's ScaledObject and TriggerAuthentication, written out for the fields Kickstand uses and
// the ones KEDA documents beside them (keda.sh/v1alpha1), so strict decoding refuses a misspelt
// or unknown field as it does for the Kubernetes types. KEDA's own Go module is not imported: it
// would pull in the controller runtime for two structs.

import (
	"fmt"
	"strconv"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type scaledObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              scaledObjectSpec `json:"spec"`
}

type scaledObjectSpec struct {
	ScaleTargetRef        *scaleTarget    `json:"scaleTargetRef"`
	PollingInterval       *int32          `json:"pollingInterval,omitempty"`
	InitialCooldownPeriod *int32          `json:"initialCooldownPeriod,omitempty"`
	CooldownPeriod        *int32          `json:"cooldownPeriod,omitempty"`
	IdleReplicaCount      *int32          `json:"idleReplicaCount,omitempty"`
	MinReplicaCount       *int32          `json:"minReplicaCount,omitempty"`
	MaxReplicaCount       *int32          `json:"maxReplicaCount,omitempty"`
	Advanced              *advancedConfig `json:"advanced,omitempty"`
	Triggers              []scaleTrigger  `json:"triggers"`
	Fallback              *fallbackConfig `json:"fallback,omitempty"`
}

type scaleTarget struct {
	Name                   string `json:"name"`
	APIVersion             string `json:"apiVersion,omitempty"`
	Kind                   string `json:"kind,omitempty"`
	EnvSourceContainerName string `json:"envSourceContainerName,omitempty"`
}

type advancedConfig struct {
	HorizontalPodAutoscalerConfig *hpaConfig `json:"horizontalPodAutoscalerConfig,omitempty"`
	RestoreToOriginalReplicaCount bool       `json:"restoreToOriginalReplicaCount,omitempty"`
}

type hpaConfig struct {
	Name     string                                         `json:"name,omitempty"`
	Behavior *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

type fallbackConfig struct {
	FailureThreshold int32  `json:"failureThreshold"`
	Replicas         int32  `json:"replicas"`
	Behavior         string `json:"behavior,omitempty"`
}

type scaleTrigger struct {
	Type              string                         `json:"type"`
	Name              string                         `json:"name,omitempty"`
	UseCachedMetrics  bool                           `json:"useCachedMetrics,omitempty"`
	Metadata          map[string]string              `json:"metadata"`
	AuthenticationRef *authenticationRef             `json:"authenticationRef,omitempty"`
	MetricType        autoscalingv2.MetricTargetType `json:"metricType,omitempty"`
}

type authenticationRef struct {
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
}

type triggerAuthentication struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		SecretTargetRef []struct {
			Parameter string `json:"parameter"`
			Name      string `json:"name"`
			Key       string `json:"key"`
		} `json:"secretTargetRef,omitempty"`
		Env []struct {
			Parameter     string `json:"parameter"`
			Name          string `json:"name"`
			ContainerName string `json:"containerName,omitempty"`
		} `json:"env,omitempty"`
	} `json:"spec"`
}

// The fields KEDA requires, which the CRD's schema would check on apply.
func checkScaledObject(name string, s scaledObject, auths map[string]triggerAuthentication) []string {
	var problems []string
	where := "ScaledObject/" + name
	if s.Spec.ScaleTargetRef == nil || s.Spec.ScaleTargetRef.Name == "" {
		problems = append(problems, where+": spec.scaleTargetRef.name is required")
	}
	if len(s.Spec.Triggers) == 0 {
		problems = append(problems, where+": spec.triggers needs at least one trigger")
	}
	min, max := int32(0), int32(100) // KEDA's defaults
	if s.Spec.MinReplicaCount != nil {
		min = *s.Spec.MinReplicaCount
	}
	if s.Spec.MaxReplicaCount != nil {
		max = *s.Spec.MaxReplicaCount
	}
	if min < 0 || max < 1 || min > max {
		problems = append(problems, fmt.Sprintf("%s: replica counts out of order (min %d, max %d)", where, min, max))
	}
	if f := s.Spec.Fallback; f != nil && (f.FailureThreshold < 1 || f.Replicas < 1) {
		problems = append(problems, where+": fallback needs failureThreshold and replicas of at least 1")
	}
	for i, t := range s.Spec.Triggers {
		at := fmt.Sprintf("%s trigger %d (%s)", where, i, t.Type)
		if t.Type == "" {
			problems = append(problems, fmt.Sprintf("%s trigger %d: type is required", where, i))
		}
		if t.AuthenticationRef != nil {
			if _, ok := auths[t.AuthenticationRef.Name]; !ok && t.AuthenticationRef.Kind != "ClusterTriggerAuthentication" {
				problems = append(problems, at+": authenticationRef names no TriggerAuthentication here: "+t.AuthenticationRef.Name)
			}
		}
		switch t.Type {
		case "kafka":
			for _, key := range []string{"bootstrapServers", "consumerGroup", "topic", "lagThreshold"} {
				if t.Metadata[key] == "" {
					problems = append(problems, at+": metadata."+key+" is required")
				}
			}
			if v, err := strconv.Atoi(t.Metadata["lagThreshold"]); t.Metadata["lagThreshold"] != "" && (err != nil || v < 1) {
				problems = append(problems, at+": metadata.lagThreshold must be a whole number above 0")
			}
		case "cpu", "memory":
			if t.MetricType != autoscalingv2.UtilizationMetricType && t.MetricType != autoscalingv2.AverageValueMetricType {
				problems = append(problems, at+": metricType must be Utilization or AverageValue")
			}
			if v, err := strconv.Atoi(t.Metadata["value"]); err != nil || v < 1 {
				problems = append(problems, at+": metadata.value must be a whole number above 0")
			}
		}
	}
	return problems
}

func checkTriggerAuthentication(name string, a triggerAuthentication, secrets map[string]bool) []string {
	var problems []string
	where := "TriggerAuthentication/" + name
	if len(a.Spec.SecretTargetRef) == 0 && len(a.Spec.Env) == 0 {
		problems = append(problems, where+": no secretTargetRef or env")
	}
	for _, ref := range a.Spec.SecretTargetRef {
		if ref.Parameter == "" || ref.Name == "" || ref.Key == "" {
			problems = append(problems, where+": each secretTargetRef needs parameter, name and key")
		}
		// Secrets made beforehand (prod) are not rendered; only a rendered one can be checked.
		if _, rendered := secrets[ref.Name]; rendered && !secrets[ref.Name+"/"+ref.Key] {
			problems = append(problems, fmt.Sprintf("%s: Secret/%s has no key %s", where, ref.Name, ref.Key))
		}
	}
	return problems
}

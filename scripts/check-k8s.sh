#!/usr/bin/env bash
# Renders every kustomize overlay under k8s/overlays and checks each object twice:
#  1. tools/k8s-check: strict decoding into the Kubernetes API's Go types, plus Kickstand's own rules;
#  2. kubeconform (strict) against JSON schemas made offline from the same Kubernetes version's
#     OpenAPI document (scripts/k8s-json-schemas.js), KEDA's custom resources left to k8s-check.
# Needs Go and the Go module proxy (kubeconform and k8s.io/kubernetes come from it); no cluster, no
# other download. The schemas are cached under tools/k8s-check/bin/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
kubernetes_version="v1.31.3" # the same minor as k8s.io/api in tools/k8s-check/go.mod
kubeconform_version="v0.6.7"
bin="$root/tools/k8s-check/bin"

bash k8s/overlays/dev/make-dev-secrets.sh >/dev/null
(cd tools/k8s-check && go build -o bin/k8s-check .)
tools/k8s-check/bin/k8s-check k8s/overlays

if [ ! -x "$bin/kubeconform-$kubeconform_version" ]; then
  GOBIN="$bin" go install "github.com/yannh/kubeconform/cmd/kubeconform@$kubeconform_version"
  mv "$bin/kubeconform" "$bin/kubeconform-$kubeconform_version"
fi
schemas="$bin/schemas-$kubernetes_version"
if [ ! -f "$schemas/_definitions.json" ]; then
  module_dir="$(cd tools/k8s-check && go mod download -json "k8s.io/kubernetes@$kubernetes_version" |
    node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).Dir))')"
  node scripts/k8s-json-schemas.js "$module_dir/api/openapi-spec/swagger.json" "$schemas.tmp"
  rm -rf "$schemas" && mv "$schemas.tmp" "$schemas"
fi
for overlay in k8s/overlays/*/; do
  echo "kubeconform ${overlay%/}:"
  tools/k8s-check/bin/k8s-check -render "$overlay" |
    "$bin/kubeconform-$kubeconform_version" -strict -summary -skip ScaledObject,TriggerAuthentication \
      -schema-location "$schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json"
done

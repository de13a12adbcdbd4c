#!/usr/bin/env bash
# Renders every kustomize overlay under k8s/overlays and checks each object against the Kubernetes
# API types plus Kickstand's own rules (tools/k8s-check). Needs Go; no cluster.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash k8s/overlays/dev/make-dev-secrets.sh >/dev/null
(cd tools/k8s-check && go build -o bin/k8s-check .)
tools/k8s-check/bin/k8s-check k8s/overlays

#!/usr/bin/env bash
# A release: the one image of every service, built for amd64 and arm64 from a clean commit, tagged
# <version>-<git sha> and <version> (package.json), pushed, and pinned by digest in the production
# overlay (deploy/overlays/prod/kustomization.yaml), which is then committed as the release.
#   COTA_REGISTRY=ghcr.io/<org> npm run release
# Needs docker with buildx (and QEMU for the other architecture) logged in to the registry.
set -euo pipefail
cd "$(dirname "$0")/.."

registry="${COTA_REGISTRY:?set COTA_REGISTRY to the image registry, e.g. ghcr.io/<org>}"
if ! git diff --quiet HEAD --; then
  echo "uncommitted changes: a release is built from a commit" >&2
  exit 1
fi
version="$(node -p "require('./package.json').version")"
sha="$(git rev-parse --short=12 HEAD)"
image="${registry%/}/cota"
meta="$(mktemp)"
trap 'rm -f "$meta"' EXIT

docker buildx build \
  --platform linux/amd64,linux/arm64 \
  --build-arg VERSION="$version" \
  --build-arg GIT_SHA="$sha" \
  --tag "$image:$version-$sha" \
  --tag "$image:$version" \
  --metadata-file "$meta" \
  --push .

digest="$(node -p "require('$meta')['containerimage.digest']")"
npm run build --silent
node dist/cli/release-pin.js deploy/overlays/prod/kustomization.yaml "$image" "$digest"
git add deploy/overlays/prod/kustomization.yaml
git commit -m "Release $version ($sha): $image@$digest"
echo "released $image:$version-$sha as $digest; deploy with: kubectl apply -k deploy/overlays/prod"

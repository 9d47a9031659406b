# syntax=docker/dockerfile:1
# One image for the seven Cota services: `docker run cota <service>` (gateway, planner, context,
# tool-gate, executor, rag, narrator), `node dist/cli/ingest.js` for the ingest job.
# The raw FII data is never copied in: mount it at /data/fii (COTA_DATA_DIR).
# The services listen on loopback unless told otherwise: a container passes HOST=0.0.0.0 (gateway) and
# COTA_METRICS_HOST=0.0.0.0 (metrics/probe ports) explicitly, as deploy/ and docker-compose.yml do.

# Released by tools/release.sh (`npm run release`): built for linux/amd64 and linux/arm64 with buildx, tagged
# <version>-<git sha> and <version>, referenced by digest in deploy/overlays/prod.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Compile TypeScript with every dependency, on the build machine's own platform: the output is
#    JavaScript, the same for every target architecture (no emulation for the slow part).
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json tsconfig.build.json nx.json ./
COPY libs ./libs
COPY apps ./apps
COPY cli ./cli
# The chat page (apps/web) builds the measure catalog's units and labels in.
COPY policies/measures.yaml ./policies/measures.yaml
RUN npm run build

# 2. Production dependencies only.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. Runtime: compiled code, production node_modules, policies and knowledge base; non-root.
FROM ${NODE_IMAGE} AS runtime
ARG VERSION=dev
ARG GIT_SHA=unknown
LABEL org.opencontainers.image.title="cota" \
      org.opencontainers.image.description="Cota: conversational assistant for Brazilian real-estate funds (FIIs), all seven services" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${GIT_SHA}"
# The release in every trace (service.version) and in the start-up log line.
ENV COTA_VERSION=${VERSION} \
    COTA_GIT_SHA=${GIT_SHA} \
    NODE_ENV=production \
    COTA_DATA_DIR=/data/fii \
    PORT=3000
WORKDIR /app
RUN groupadd --system --gid 10001 cota && useradd --system --uid 10001 --gid cota --no-create-home cota
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
COPY --chown=root:root policies ./policies
COPY --chown=root:root knowledge ./knowledge
USER 10001:10001
EXPOSE 3000
# `node dist/cli/start.js <service>` runs one service (NATS_URL etc. required); without an
# argument and without NATS_URL/DATABASE_URL/REDIS_URL it runs everything embedded.
ENTRYPOINT ["node", "dist/cli/start.js"]
CMD ["gateway"]

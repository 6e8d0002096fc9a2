# syntax=docker/dockerfile:1
# The gateway as a container: the production install CI checks (.ci/production-install.sh: the tracked files,
# `npm ci --omit=dev`, then `node bin/workspace-gateway.js serve`), run as the image's unprivileged `node` user.
# test/deploy/recipes.test.ts keeps this file's install, start and health-check steps equal to CI's and the CLI's.
FROM node:24-bookworm-slim

WORKDIR /app

# Dependencies first, so a change to the source alone reuses this layer. better-sqlite3 ships prebuilt binaries
# (glibc and musl, x64 and arm64): no compiler is needed. npm's cache stays out of the image.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund --loglevel=error

# The rest of the tracked files (.dockerignore leaves out what git ignores). Owned by root: the service cannot
# change its own code.
COPY . .

# The embedded database lives on a volume; mount a host directory or a named volume at /data to keep it.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]

# Build identity for GET /version (there is no git checkout in the image): `--build-arg BUILD_ID=$(git rev-parse --short HEAD)`.
ARG BUILD_ID=""
ENV BUILD_ID=${BUILD_ID} \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/gateway.db

USER node
EXPOSE 3000

# Liveness through node itself (the image has no curl). It asks the loopback address, so HOST must include it
# (0.0.0.0, the default here, does).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The gateway stops on SIGTERM: it finishes requests under way (SHUTDOWN_TIMEOUT_SECONDS, default 20 s), then
# exits 0. Give `docker stop` / the platform a longer grace period than that (e.g. `docker stop -t 30`).
STOPSIGNAL SIGTERM
CMD ["node", "bin/workspace-gateway.js", "serve"]

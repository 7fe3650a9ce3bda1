# syntax=docker/dockerfile:1
# Pinfold from this repository: `docker build -t pinfold .` (or `docker compose up`, compose.yaml).
# Two stages, as the official Node images suggest: the workspace is installed and built in the
# first, and only @pinfold/server with its production dependencies (`pnpm deploy`) goes into the
# second, which runs as the image's unprivileged `node` user with its data on a volume.

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY . .
# pnpm as the README fetches it; the lockfile decides every version. The deploy installs the
# server's production dependencies only, which leave the workspace's patch of a test-only
# devDependency unused: pnpm refuses that (ERR_PNPM_UNUSED_PATCH) unless told it is expected.
RUN npx -y pnpm@12.21.0 install --frozen-lockfile \
 && npx -y pnpm@12.21.0 build \
 && PNPM_CONFIG_ALLOW_UNUSED_PATCHES=true npx -y pnpm@12.21.0 --filter @pinfold/server deploy --prod --legacy /opt/pinfold \
 && chmod -R a+rX /opt/pinfold
# ^ the deploy copies modes as built, and the build's template database (dist/database-template) is
# owner-only (root): the node user could not read it (EACCES copyfile at the first start). The server
# makes its copy in the data directory owner-only again.

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    PINFOLD_DATA_DIR=/var/lib/pinfold
COPY --from=build /opt/pinfold /opt/pinfold
# the data directory belongs to the user the server runs as; pinfold keeps it 0700
RUN mkdir -p /var/lib/pinfold && chown node:node /var/lib/pinfold && chmod 0700 /var/lib/pinfold \
 && ln -s /opt/pinfold/dist/cli.js /usr/local/bin/pinfold
USER node
WORKDIR /var/lib/pinfold
VOLUME ["/var/lib/pinfold"]
EXPOSE 3000
# /healthz: the process answers (liveness); orchestrators that route traffic use /readyz
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# pinfold stops on SIGTERM after the requests in flight (PINFOLD_SHUTDOWN_TIMEOUT_MS, 30 s): give
# `docker stop -t 45` that time; node runs as PID 1 under `--init` (compose: init: true) or not,
# as it installs its own SIGTERM and SIGINT handlers
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/opt/pinfold/dist/cli.js"]
CMD ["serve"]

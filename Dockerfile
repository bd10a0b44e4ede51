# zpl-legacy-compat: the standalone server (`zpl-server`, the entry `npm start` runs) in a container.
# The build stage compiles TypeScript (server and preview page) with the dev dependencies; the runtime stage
# keeps only production dependencies, the compiled JavaScript the server loads and the preview page's files,
# runs as the unprivileged `node` user, and starts Node itself as PID 1 (no npm, no shell) so SIGTERM reaches
# the graceful shutdown. test/container-replay.test.ts replays every step of this file without Docker.
# Node: the current LTS line (26), pinned to one release on Debian 13 (bump it deliberately; the code runs on Node 20 and later).

FROM node:26.10.0-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json index.ts ./
COPY compare compare
COPY renderer renderer
COPY middleware middleware
COPY server server
COPY bin bin
COPY web web
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:26.10.0-trixie-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_LEVEL=info
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist/index.js dist/
COPY --from=build /app/dist/compare dist/compare
COPY --from=build /app/dist/renderer dist/renderer
COPY --from=build /app/dist/middleware dist/middleware
COPY --from=build /app/dist/server dist/server
COPY --from=build /app/dist/bin dist/bin
COPY --from=build /app/dist/web dist/web
COPY --from=build /app/web/index.html /app/web/shadow.html /app/web/style.css web/
USER node
EXPOSE 3000
# Liveness, not readiness: /healthz stays 200 through a Redis blip (/readyz is for load balancers). It asks
# the address the server listens on (HOST; loopback for the wildcards 0.0.0.0 and ::), at OPS_PORT when the ops
# routes live there. Podman and buildah keep HEALTHCHECK only with `--format docker` (OCI images have none).
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "const h = process.env.HOST || '127.0.0.1'; const host = h === '0.0.0.0' ? '127.0.0.1' : h === '::' ? '[::1]' : h.includes(':') ? '[' + h + ']' : h; fetch('http://' + host + ':' + (process.env.OPS_PORT || process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/bin/zpl-server.js"]

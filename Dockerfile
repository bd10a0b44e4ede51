# zpl-legacy-compat: the standalone server (`npm start`) in a container.
# Build stage compiles TypeScript with the dev dependencies; the runtime stage keeps only production
# dependencies and the compiled JavaScript, runs as the unprivileged `node` user, and starts Node itself
# as PID 1 (no npm, no shell) so SIGTERM from the orchestrator reaches the server's graceful shutdown.
# Not built on the project's machines (no Docker there); see README "Containers".

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would compile before the sources are here.
RUN npm ci --ignore-scripts
COPY tsconfig.json index.ts ./
COPY renderer renderer
COPY middleware middleware
COPY examples examples
COPY bin bin
COPY bench bench
COPY test test
RUN npx tsc -p tsconfig.json && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_LEVEL=info
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist/index.js /app/dist/index.d.ts dist/
COPY --from=build /app/dist/renderer dist/renderer
COPY --from=build /app/dist/middleware dist/middleware
COPY --from=build /app/dist/examples dist/examples
COPY --from=build /app/dist/bin dist/bin
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/examples/server.js"]

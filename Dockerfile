# Self-hosting image: the edge on the official Deno image, serving the built web app.
# Build:  docker build -t stockbridge .
# Run:    docker run -p 8000:8000 -v stockbridge-data:/data --env-file .env.production stockbridge
# With no LIBSQL_URL in the env file the database is the file /data/stockbridge.db (the volume).
# Deno 2.5: the version Deno Deploy runs, so both paths run the same runtime.
ARG DENO_VERSION=2.5.6
ARG NODE_VERSION=20

# 1. Dependencies and the web build (Vite needs Node). Debian on both stages: libSQL's native
#    module, installed here by npm, is built against glibc.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY edge/package.json edge/
COPY web/package.json web/
COPY sandbox/package.json sandbox/
COPY cli/package.json cli/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build --workspace web

# 2. Runtime: Deno with the npm packages the edge imports (nodeModulesDir "manual" in deno.json).
FROM denoland/deno:debian-${DENO_VERSION}
WORKDIR /app
ENV APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data \
    LIBSQL_URL=file:/data/stockbridge.db
COPY --from=build /app/package.json /app/deno.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/shared ./shared
COPY --from=build /app/edge ./edge
COPY --from=build /app/web/dist ./web/dist
RUN mkdir -p /data && chown deno:deno /data && deno cache --config deno.json edge/main.ts
VOLUME /data
USER deno
EXPOSE 8000
# SIGTERM (docker stop) lets requests in flight finish, then closes the database.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD deno eval "const r = await fetch('http://127.0.0.1:' + (Deno.env.get('PORT') ?? '8000') + '/api/health'); Deno.exit(r.ok ? 0 : 1)"
CMD ["deno", "task", "--config", "deno.json", "serve"]

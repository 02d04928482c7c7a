# brewrecords in one container: data in the /data volume, HTTPS from a certificate or behind a
# TLS-terminating proxy (see README, "Self-hosting"). test/e2e/container.test.ts builds this file
# with podman and runs the image; test/e2e/container-commands.test.ts runs its commands outside any
# container engine.

# Production dependencies only, from the frozen lock file.
FROM oven/bun:1.4.5-slim AS deps
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production --ignore-scripts

# The server as deployed: one bundle with its chunks and page assets (scripts/build.ts), so a start
# reads a few files instead of resolving and transpiling the sources.
FROM deps AS build
COPY scripts/build.ts ./scripts/
COPY src ./src
RUN bun scripts/build.ts

FROM oven/bun:1.4.5-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=/data/brewrecords.sqlite \
    DEMO=0
# Everything the server runs is in the bundle but Swagger UI's files, which it serves from the
# installed swagger-ui-dist: the image holds that package alone (not, say, the TypeScript compiler
# that the web framework names as an optional peer).
COPY --from=deps /app/node_modules/swagger-ui-dist ./node_modules/swagger-ui-dist
COPY package.json ./
COPY --from=build /app/dist ./dist
# The command line on PATH: docker exec <container> brewrecords user add alice
# /data belongs to the image's user (uid 1000), so a named volume starts out writable by the server;
# mounted certificate and key files must be readable by that uid.
RUN ln -s /app/dist/main.js /usr/local/bin/brewrecords \
 && mkdir -p /data \
 && chown bun:bun /data
USER bun
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 CMD ["brewrecords", "healthcheck"]
CMD ["brewrecords", "serve"]

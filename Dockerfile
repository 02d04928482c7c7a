# brewrecords in one container: data in the /data volume, HTTPS from a certificate or behind a
# TLS-terminating proxy (see README, "Self-hosting"). The commands below are exercised outside
# Docker by test/e2e/container-commands.test.ts.

# Production dependencies only, from the frozen lock file.
FROM oven/bun:1.4.5-slim AS deps
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production --ignore-scripts

FROM oven/bun:1.4.5-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=/data/brewrecords.sqlite \
    DEMO=0
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
# The command line on PATH: docker exec <container> brewrecords user add alice
RUN ln -s /app/src/cli/main.ts /usr/local/bin/brewrecords \
 && mkdir -p /data \
 && chown bun:bun /data
USER bun
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 CMD ["brewrecords", "healthcheck"]
CMD ["brewrecords", "serve"]

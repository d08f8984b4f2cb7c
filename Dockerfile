# One image for API servers and ingest workers (see docker-compose.yml).
FROM node:20-bookworm-slim
# chromium and the CJK fonts: the weekly mail's maps are console pages the API draws to PNG
# (server/src/render/console-png.ts, RENDER_BROWSER default /usr/bin/chromium), in three languages
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ libsqlite3-dev chromium fonts-noto-cjk && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# without a reachable prebuilt binary sqlite3 links the image's libsqlite3 (as .ci/run does)
# instead of compiling its bundled SQLite
RUN GYP_DEFINES="sqlite=/usr" npm ci --no-audit --no-fund && npm run build
ENV PORT=8080 NODE_ENV=production
EXPOSE 8080
CMD ["node_modules/.bin/tsx", "server/src/main.ts"]

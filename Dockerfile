# The service image. Build: docker compose build (see docker-compose.yml).
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update -qq && apt-get install -y -qq python3 make g++ >/dev/null && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY config ./config
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["node", "dist/main.js"]

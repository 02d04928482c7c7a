// Deviations in the deprecated version 1 and in rate limiting.
import { json, STATUSES, text, type Deviation } from "../deviation.ts";

export const OTHERS: Deviation[] = [
  {
    name: "v1-no-planning-default", area: "v1", caughtBy: "without status lists exactly the Planning batches",
    what: "the v1 batch list without status lists every status",
    async handle(c) {
      if (c.method !== "GET" || c.path !== "/v1/batches" || c.query.has("status")) return;
      const all: { _id: string }[] = [];
      for (const s of STATUSES) {
        const u = await c.forward({ search: `?status=${s}&limit=50` });
        if (u.status !== 200) return u;
        all.push(...(JSON.parse(u.body) as { _id: string }[]));
      }
      all.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
      const offset = Number(c.query.get("offset") ?? 0);
      return json(all.slice(offset, offset + Math.min(Number(c.query.get("limit") ?? 10), 50)));
    },
  },
  {
    name: "v1-offset-ignored", area: "v1", caughtBy: "joined by offset are the full list",
    what: "version 1 lists ignore offset",
    async handle(c) { if (c.method === "GET" && c.path.startsWith("/v1/") && c.query.has("offset")) return c.forward({ search: c.search({ offset: undefined }) }); },
  },
  {
    name: "v1-post-unauthorized", area: "v1", caughtBy: "POST /v1/recipes is not offered",
    what: "a version 1 POST with a valid key answers 401 `Unauthorized`",
    async handle(c) { if (c.method === "POST" && c.path.startsWith("/v1/")) return text("Unauthorized", 401); },
  },
  {
    name: "no-retry-after", area: "ratelimit", caughtBy: "carries a Retry-After header",
    what: "a 429 answer carries no Retry-After header",
    async handle(c) {
      const u = await c.forward();
      u.headers.delete("retry-after");
      return u;
    },
  },
  {
    name: "retry-after-milliseconds", area: "ratelimit", caughtBy: "carries a Retry-After header",
    what: "Retry-After is given in milliseconds",
    async handle(c) {
      const u = await c.forward();
      const s = u.headers.get("retry-after");
      if (s && /^\d+$/.test(s)) u.headers.set("retry-after", String(Number(s) * 1000));
      return u;
    },
  },
];

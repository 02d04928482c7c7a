import type { BenchData } from "./generate.ts";

// Scenarios 1–7 of the performance issue. Each compares the server with one baseline measured in the
// same round; the ratio of each round is server ÷ baseline (req/s), or first page ÷ deep page for
// scenario 7 (so above 1 means the deep page costs more).

export type Target = "server" | "reference" | "fastify" | "json-server";

export interface Load {
  target: Target;
  /** Path and query (GET), or the base URL path for the wrk.lua modes. */
  path: string;
  auth?: string;
  env?: Record<string, string>;
}

export interface Comparison {
  id: string;
  title: string;
  subject: Load;
  baseline: Load;
  /** "ratio" = subject ÷ baseline req/s must be at least `target`; "cost" = baseline ÷ subject req/s at most. */
  kind: "ratio" | "cost";
  target: number;
  /** Also require subject p99 ≤ this × baseline p99. */
  p99Target?: number;
}

export function comparisons(d: BenchData): Comparison[] {
  const main = d.main.authorization;
  const large = d.large.authorization;
  const get = (target: Target, path: string, auth = main): Load => ({ target, path, auth });
  const patch: Load["env"] = { BENCH_MODE: "patch-batch", BENCH_IDS: d.main.patchBatchIds.join(",") };
  const adjust: Load["env"] = { BENCH_MODE: "adjust", BENCH_BASE: "/v2/inventory/hops", BENCH_IDS: d.main.hopIds.join(",") };
  const both = (id: string, title: string, path: string, target: number, env?: Load["env"], p99Target?: number): Comparison => ({
    id, title, kind: "ratio", target, p99Target,
    subject: { target: "server", path, auth: main, env },
    baseline: { target: "reference", path, auth: main, env },
  });
  const deep = (id: string, title: string, first: string, deepPath: string): Comparison => ({
    id, title, kind: "cost", target: 1.2, subject: get("server", deepPath, large), baseline: get("server", first, large),
  });
  return [
    both("1-list", "GET /v2/batches (default fields, limit 10)", "/v2/batches", 0.85, undefined, 1.5),
    both("2-complete", "GET /v2/batches?complete=True&limit=50", "/v2/batches?complete=True&limit=50", 0.7),
    both("3-one", "GET /v2/batches/{id}", `/v2/batches/${d.main.batchId}`, 0.7),
    both("4-readings", "GET /v2/batches/{id}/readings (200)", `/v2/batches/${d.main.readingsBatchId}/readings`, 0.7),
    both("5-patch", "PATCH /v2/batches/{id} measuredOg", "/", 0.8, patch),
    both("6-adjust", "PATCH /v2/inventory/hops/{id} inventory_adjust", "/", 0.8, adjust),
    // Both pages carry a query string: a list with none takes prepared defaults (src/store/sqlite.ts),
    // a path no page after a cursor can take, and the ratio would measure that instead of depth.
    deep("7a-deep-id", "page 5,000 vs page 1 (start_after, _id)", "/v2/batches?limit=10", `/v2/batches?limit=10&start_after=${d.large.idCursor}`),
    deep("7b-deep-brewdate", "page 5,000 vs page 1 (order_by=brewDate)", "/v2/batches?order_by=brewDate",
      `/v2/batches?order_by=brewDate&start_after=${d.large.brewDateCursor}`),
    {
      id: "peer-fastify", title: "list vs Fastify 5 + better-sqlite3 (Node)", kind: "ratio", target: 1.3,
      subject: get("server", "/v2/batches"), baseline: get("fastify", "/v2/batches"),
    },
    {
      id: "peer-json-server", title: "list vs json-server 0.17 (limit 10)", kind: "ratio", target: 10,
      subject: get("server", "/v2/batches"), baseline: { target: "json-server", path: "/batches?_limit=10" },
    },
  ];
}

/** The mixed load of the memory check: every read scenario in turn, every fifth request a PATCH. */
export function mixedLoad(d: BenchData): Record<string, string> {
  return {
    BENCH_MODE: "mixed",
    BENCH_IDS: d.main.patchBatchIds.join(","),
    BENCH_PATHS: [
      "/v2/batches",
      "/v2/batches?complete=True&limit=50",
      `/v2/batches/${d.main.batchId}`,
      `/v2/batches/${d.main.readingsBatchId}/readings`,
      "/v2/batches?order_by=brewDate&limit=20",
      "/v2/inventory/hops",
    ].join(","),
  };
}

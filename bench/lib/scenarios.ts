import { ANY_FIELD, type BenchData } from "./generate.ts";

// Scenarios 1–7 of the performance issue. Each compares the server with one baseline measured in the
// same round; the ratio of each round is server ÷ baseline (req/s), or first page ÷ deep page for
// scenario 7 (so above 1 means the deep page costs more).

/**
 * `server-full`: the server with SQLITE_SYNCHRONOUS=FULL, on the same database. `server-hooked`: the
 * server whose account has one webhook subscription, on its own copy of the database (hooked.ts).
 * `server-plain`: the server as `server` is, in a process that serves scenario 12 alone, as
 * `server-hooked` does: `server` has served every scenario before it by then, the same PATCHes of
 * scenario 5 among them, and a process warmed on a load is cheaper per request than one meeting it.
 */
export type Target = "server" | "server-full" | "server-hooked" | "server-plain" | "reference" | "fastify" | "json-server";

export interface Load<T extends string = Target> {
  target: T;
  /** Path and query (GET), or the base URL path for the wrk.lua modes. */
  path: string;
  auth?: string;
  env?: Record<string, string>;
}

export interface Comparison<T extends string = Target> {
  id: string;
  title: string;
  subject: Load<T>;
  baseline: Load<T>;
  /** "ratio" = subject ÷ baseline req/s must be at least `target`; "cost" = baseline ÷ subject req/s at most. */
  kind: "ratio" | "cost";
  /** Undefined: the ratio is shown, with no target (the price of FULL durability). */
  target?: number;
  /** Also require subject p99 ≤ this × baseline p99. */
  p99Target?: number;
  /** Connections for this comparison instead of `--connections`: a 7 MB answer takes a second or more. */
  connections?: number;
  /** Seconds of warm-up per side instead of the run's: for sides with more code to compile. */
  warmupSeconds?: number;
  /**
   * Pairs of processes measured per round (1): each pair after the first on new processes of both
   * sides, and each pair's ratio one value of the median. For comparisons of two processes of one
   * build, where one process of it can land 4-5% above or below another and the ratio sought lies
   * that close to its target (docs/performance.md, "Webhooks").
   */
  processPairs?: number;
}

/** The first time 9c posts a reading at (wrk.lua's BENCH_APPEND_FROM, check.ts): later than every generated reading. */
export const APPEND_FROM = 4_000_000_000_000;

/** wrk.lua's inputs for the write scenarios: measuredOg over 100 batches, ±1 stock over 50 hops, in turn. */
export function writeModes(m: { patchBatchIds: string[]; hopIds: string[] }): Record<"patch" | "adjust", Record<string, string>> {
  return {
    patch: { BENCH_MODE: "patch-batch", BENCH_IDS: m.patchBatchIds.join(",") },
    adjust: { BENCH_MODE: "adjust", BENCH_BASE: "/v2/inventory/hops", BENCH_IDS: m.hopIds.join(",") },
  };
}

export function comparisons(d: BenchData): Comparison[] {
  const main = d.main.authorization;
  const large = d.large.authorization;
  const get = (target: Target, path: string, auth = main): Load => ({ target, path, auth });
  const { patch, adjust } = writeModes(d.main);
  const both = (id: string, title: string, path: string, target: number, env?: Load["env"], p99Target?: number): Comparison => ({
    id, title, kind: "ratio", target, p99Target,
    subject: { target: "server", path, auth: main, env },
    baseline: { target: "reference", path, auth: main, env },
  });
  const deep = (id: string, title: string, first: string, deepPath: string, target = 1.2): Comparison => ({
    id, title, kind: "cost", target, subject: get("server", deepPath, large), baseline: get("server", first, large),
  });
  const cost = (id: string, title: string, subject: Load, baseline: Load, target: number): Comparison => ({ id, title, kind: "cost", target, subject, baseline });
  const append = (batchId: string): Load => ({ target: "server", path: "/", auth: main, env: { BENCH_MODE: "append", BENCH_IDS: batchId, BENCH_APPEND_FROM: String(APPEND_FROM) } });
  const durable = (id: string, title: string, env: Load["env"]): Comparison => ({
    id, title, kind: "ratio",
    subject: { target: "server-full", path: "/", auth: main, env },
    baseline: { target: "server", path: "/", auth: main, env },
  });
  const big = `/v2/batches/${d.main.bigReadingsBatchId}/readings`;
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
    // Order by a field without a column of its own (its keys made), against the indexed brewDate.
    cost("8a-any-first", `page 1 by ${ANY_FIELD} (no column) vs by brewDate`, get("server", `/v2/batches?order_by=${ANY_FIELD}`, large),
      get("server", "/v2/batches?order_by=brewDate", large), 3),
    cost("8b-any-deep", `page 5,000 by ${ANY_FIELD} (no column) vs by brewDate`,
      get("server", `/v2/batches?order_by=${ANY_FIELD}&start_after=${d.large.anyFieldCursor}`, large),
      get("server", `/v2/batches?order_by=brewDate&start_after=${d.large.brewDateCursor}`, large), 3),
    deep("8c-any-depth", `page 5,000 vs page 1 (order_by=${ANY_FIELD}, no column)`, `/v2/batches?order_by=${ANY_FIELD}`,
      `/v2/batches?order_by=${ANY_FIELD}&start_after=${d.large.anyFieldCursor}`),
    { ...both("9a-readings-50k", "GET /v2/batches/{id}/readings (50,000; 2 connections)", big, 0.8), connections: 2 },
    // Bounded below the times 9c appends at, so it answers the same 100 readings whether 9c ran before
    // it or not: after 9c, `since` alone answered 200 (docs/performance.md, "The `since` query").
    cost("9b-since", "since=&until= (the last 100 generated of 50,000) vs all of a batch of 100",
      get("server", `${big}?since=${d.main.lastHundredSince}&until=${APPEND_FROM - 1}`),
      get("server", `/v2/batches/${d.main.hundredReadingsBatchId}/readings`), 1.2),
    cost("9c-append", "POST a reading: batch of 50,000 vs batch of 10", append(d.main.bigReadingsBatchId), append(d.main.tenReadingsBatchId), 1.2),
    both("11-stream", "POST /stream?id= (100 devices, every post stored)", "/", 0.8, { BENCH_MODE: "stream", BENCH_LOGGING_ID: d.main.loggingId }),
    durable("10a-full-patch", "batch PATCH, SQLITE_SYNCHRONOUS=FULL vs NORMAL", patch),
    durable("10b-full-adjust", "inventory adjust, SQLITE_SYNCHRONOUS=FULL vs NORMAL", adjust),
    // Writes do not wait for deliveries: the same PATCH load with every PATCH making an event.
    // Both are fresh processes, and the subscribed one compiles its delivery path as well: with one
    // second of warm-up its JIT threads still took 18-27 µs of CPU per PATCH in the measured slices
    // against 8.5 without (docs/performance.md, "Webhooks"). Each side gets five seconds instead.
    // Three pairs of processes a round: two processes of the plain server alone differ by up to 10%.
    {
      id: "12-hooked-patch", title: "batch PATCH, one webhook subscription vs none", kind: "ratio", target: 0.9, warmupSeconds: 5, processPairs: 3,
      subject: { target: "server-hooked", path: "/", auth: main, env: patch },
      baseline: { target: "server-plain", path: "/", auth: main, env: patch },
    },
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

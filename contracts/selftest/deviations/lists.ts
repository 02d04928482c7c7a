// Deviations in lists, paging and ordering, and in readings and brew trackers.
import { json, LIST, mapJson, text, type Deviation } from "../deviation.ts";

const isList = (c: { method: string; path: string }) => c.method === "GET" && LIST.test(c.path);

export const LISTING: Deviation[] = [
  {
    name: "page-repeats-item", area: "lists", caughtBy: "joined with start_after are the full list",
    what: "a page after start_after=X starts with X again",
    async handle(c) {
      if (!isList(c)) return;
      const u = await c.forward();
      if (u.status !== 200) return u;
      const list = JSON.parse(u.body) as { _id: string }[];
      for (const e of list) c.state.set(`${c.path} ${e._id}`, e);
      const after = c.query.get("start_after");
      const prev = after ? c.state.get(`${c.path} ${after}`) : undefined;
      if (!prev || !list.length) return u;
      return json([prev, ...list].slice(0, list.length));
    },
  },
  {
    name: "limit-over-50-served", area: "lists", caughtBy: "of a list of more than 50 records",
    what: "limit above 50 is served as asked: limit=51 gives 51 entries",
    async handle(c) {
      const limit = Number(c.query.get("limit"));
      if (!isList(c) || !(limit > 50)) return;
      const first = await c.forward({ search: c.search({ limit: "50" }) });
      const page = JSON.parse(first.body) as { _id: string }[];
      if (first.status !== 200 || page.length < 50) return first;
      const rest = await c.forward({ search: c.search({ limit: String(limit - 50), start_after: page.at(-1)!._id }) });
      return mapJson(rest, (v) => [...page, ...v]);
    },
  },
  {
    name: "limit-over-50-unauthorized", area: "lists", caughtBy: "?limit=51 answers 200 with at most 50 entries, or 400",
    what: "limit above 50 answers 401 `Unauthorized`",
    async handle(c) { if (isList(c) && Number(c.query.get("limit")) > 50) return text("Unauthorized", 401); },
  },
  {
    name: "tie-skips", area: "lists", caughtBy: "a field with ties",
    what: "start_after with an order_by continues after the start entry's value, skipping the entries tied with it",
    async handle(c) {
      const by = c.query.get("order_by");
      const after = c.query.get("start_after");
      if (!isList(c) || !by || by === "_id" || !after) return;
      const start = await c.forward({ path: `${c.path}/${after}`, search: "" });
      if (start.status !== 200) return;
      const value = JSON.stringify((JSON.parse(start.body) as Record<string, unknown>)[by]);
      return mapJson(await c.forward(), (v: Record<string, unknown>[]) => v.filter((e) => JSON.stringify(e[by]) !== value));
    },
  },
  {
    name: "default-field-dropped", area: "lists", caughtBy: "/v2/batches entries carry the default fields",
    what: "plain batch list entries (no include, not complete) leave out `brewer`",
    async handle(c) {
      if (!isList(c) || !c.path.endsWith("/v2/batches") || c.query.has("include") || /^true$/i.test(c.query.get("complete") ?? "")) return;
      return mapJson(await c.forward(), (v: Record<string, unknown>[]) => v.map(({ brewer: _brewer, ...e }) => e));
    },
  },
  {
    name: "default-limit-20", area: "lists", caughtBy: "without limit returns min(10, total)",
    what: "a list without limit gives 20 entries",
    async handle(c) { if (isList(c) && !c.query.has("limit")) return c.forward({ search: c.search({ limit: "20" }) }); },
  },
  {
    name: "desc-ignored", area: "lists", caughtBy: "order_by_direction=desc lists the _ids in reverse",
    what: "order_by_direction=desc is ignored",
    async handle(c) { if (isList(c) && c.query.get("order_by_direction") === "desc") return c.forward({ search: c.search({ order_by_direction: undefined }) }); },
  },
  {
    name: "keys-unsorted", area: "lists", caughtBy: "in alphabetical key order",
    what: "list entries give their keys in reverse alphabetical order",
    async handle(c) {
      if (!isList(c)) return;
      return mapJson(await c.forward(), (v: Record<string, unknown>[]) => v.map((e) => Object.fromEntries(Object.entries(e).reverse())));
    },
  },
  {
    name: "complete-ignored", area: "lists", caughtBy: "complete=True entries carry every field",
    what: "complete=True is ignored: only the default fields are listed",
    async handle(c) { if (isList(c) && c.query.get("complete") === "True") return c.forward({ search: c.search({ complete: undefined }) }); },
  },
  {
    name: "status-filter-ignored", area: "lists", caughtBy: "?status=<s> returns exactly the batches of that status",
    what: "the batch list ignores status",
    async handle(c) { if (isList(c) && c.path === "/v2/batches" && c.query.has("status")) return c.forward({ search: c.search({ status: undefined }) }); },
  },
  {
    name: "last-reading-oldest", area: "readings", caughtBy: "is the newest reading by time",
    what: "readings/last answers the oldest reading",
    async handle(c) {
      if (!/^\/v2\/batches\/[^/]+\/readings\/last$/.test(c.path)) return;
      const all = await c.forward({ path: c.path.replace(/\/last$/, "") });
      const list = all.status === 200 ? (JSON.parse(all.body) as { time: number }[]) : [];
      if (list.length) return json(list.reduce((a, b) => (b.time < a.time ? b : a)));
    },
  },
  {
    name: "last-reading-empty-object", area: "readings", caughtBy: "readings/last answers 404 when the batch has no reading",
    what: "readings/last of a batch without readings answers 200 `{}`",
    async handle(c) {
      if (!/^\/v2\/batches\/[^/]+\/readings\/last$/.test(c.path)) return;
      const u = await c.forward();
      const batch = u.status === 404 ? await c.forward({ path: c.path.replace(/\/readings\/last$/, "") }) : undefined;
      return batch?.status === 200 ? json({}) : u;
    },
  },
  {
    name: "untracked-batch-empty-object", area: "readings", caughtBy: "of an existing batch without a tracker answers 404",
    what: "the brew tracker of a batch that has none answers 200 `{}`", settings: { CONTRACTS_UNTRACKED_BATCH_ID: "main-batch-01" },
    async handle(c) {
      if (!/^\/v2\/batches\/[^/]+\/brewtracker$/.test(c.path)) return;
      const u = await c.forward();
      const batch = u.status === 404 ? await c.forward({ path: c.path.replace(/\/brewtracker$/, "") }) : undefined;
      return batch?.status === 200 ? json({}) : u;
    },
  },
  {
    name: "readings-missing-batch-empty", area: "readings", caughtBy: "/readings of a missing batch answers 404",
    what: "the readings of a batch that does not exist answer 200 `[]`",
    async handle(c) {
      if (!/^\/v2\/batches\/[^/]+\/readings$/.test(c.path)) return;
      const u = await c.forward();
      return u.status === 404 ? json([]) : u;
    },
  },
];

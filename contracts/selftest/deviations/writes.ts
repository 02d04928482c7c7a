// Deviations in batch, recipe and inventory writes.
import { json, keepOnRead, ONE, readWithKept, retext, text, type Call, type Deviation } from "../deviation.ts";

const batchPatch = (c: Call) => c.method === "PATCH" && /^\/v2\/batches\/[^/]+$/.test(c.path);
const inventoryPath = /^\/v2\/inventory\/(fermentables|hops|miscs|yeasts)$/;
const validationError = (path: string) => json([{ path, message: `${path} is out of range` }], 400);
/** Root fields starting with `_` in a body, but `_id`. */
const underscored = (body: Record<string, unknown>, leave: string[] = ["_id"]) =>
  Object.fromEntries(Object.entries(body ?? {}).filter(([k]) => k.startsWith("_") && !leave.includes(k)));
const createdId = (body: string) => (JSON.parse(body) as { id: string }).id;

/** Creates (POST to a list path under `prefix`) keep the fields `pick` chooses from the body; reads show them. */
function createKeeps(prefix: string, pick: (body: any) => Record<string, unknown>): Deviation["handle"] {
  return async (c) => {
    if (!c.path.startsWith(prefix)) return;
    if (c.method === "POST" && !ONE.test(c.path)) {
      const u = await c.forward();
      if (u.status === 201) keepOnRead(c, createdId(u.body), pick(c.json()));
      return u;
    }
    return readWithKept(c);
  };
}

/** PATCHes of one record under `prefix` keep the `_` fields sent (but those in `leave`); reads show them. */
function patchKeeps(prefix: string, leave: string[]): Deviation["handle"] {
  return async (c) => {
    if (!c.path.startsWith(prefix)) return;
    const m = ONE.exec(c.path);
    if (c.method === "PATCH" && m) {
      const u = await c.forward();
      if (u.status === 200) keepOnRead(c, m[3]!, underscored(c.json(), leave));
      return u;
    }
    return readWithKept(c);
  };
}

export const WRITES: Deviation[] = [
  {
    name: "created-200", area: "inventory", caughtBy: "POST /v2/inventory/miscs answers 201 `{\"id\": …}` and the item reads back",
    what: "a POST of a misc answers 200 where the document says 201 (the item is made)",
    async handle(c) {
      if (c.method !== "POST" || c.path !== "/v2/inventory/miscs") return;
      const u = await c.forward();
      return u.status === 201 ? { ...u, status: 200 } : u;
    },
  },
  {
    name: "mash-ph-edge-exclusive", area: "batches", caughtBy: "measuredMashPh=14 is accepted",
    what: "PATCH measuredMashPh=14 answers 400 `Invalid measuredMashPh`",
    async handle(c) { if (batchPatch(c) && c.json()?.measuredMashPh === 14) return text("Invalid measuredMashPh", 400); },
  },
  {
    name: "invalid-status-text", area: "batches", caughtBy: "answers 400 `Invalid status`",
    what: "the refusal of a bad status reads `Invalid Status`",
    async handle(c) { if (batchPatch(c)) return retext(c, 400, "Invalid status", "Invalid Status"); },
  },
  {
    name: "carbonation-lower-edge-exclusive", area: "batches", caughtBy: "carbonationTemp=-50 is accepted",
    what: "PATCH carbonationTemp=-50 answers 400 `Invalid carbonationTemp`",
    async handle(c) { if (batchPatch(c) && c.json()?.carbonationTemp === -50) return text("Invalid carbonationTemp", 400); },
  },
  {
    name: "gravity-tolerance", area: "batches", caughtBy: "measuredOg=1.901 is refused",
    what: "measuredOg up to 1.905 is accepted (stored as 1.9)",
    async handle(c) {
      const v = batchPatch(c) ? c.json()?.measuredOg : undefined;
      if (typeof v === "number" && v > 1.9 && v <= 1.905) return c.forward({ body: JSON.stringify({ ...c.json(), measuredOg: 1.9 }) });
    },
  },
  {
    name: "null-ignored", area: "batches", caughtBy: "=null clears the value",
    what: "PATCH with null answers `Updated` and keeps the value",
    async handle(c) {
      const body = batchPatch(c) ? c.json() : undefined;
      if (!body || !Object.values(body).includes(null)) return;
      const rest = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
      return Object.keys(rest).length ? c.forward({ body: JSON.stringify(rest) }) : text("Updated", 200);
    },
  },
  {
    name: "nothing-to-update-says-updated", area: "batches", caughtBy: "PATCH {} answers 200 `Nothing to update`",
    what: "a PATCH with no valid field answers `Updated`",
    async handle(c) { if (batchPatch(c)) return retext(c, 200, "Nothing to update", "Updated"); },
  },
  {
    name: "deleted-batch-keeps-readings", area: "batches", caughtBy: "then the batch, its readings",
    what: "the readings of a deleted batch still answer 200", settings: { CONTRACTS_DELETABLE_BATCH_ID: "main-batch-11" },
    async handle(c) {
      const del = c.method === "DELETE" ? /^\/v2\/batches\/([^/]+)$/.exec(c.path) : null;
      if (del) {
        const u = await c.forward();
        if (u.status === 200) c.state.set(`deleted ${del[1]}`, true);
        return u;
      }
      const m = /^\/v2\/batches\/([^/]+)\/readings$/.exec(c.path);
      if (m && c.state.get(`deleted ${m[1]}`)) return json([]);
    },
  },
  {
    name: "recipe-keeps-client-id", area: "recipes", caughtBy: "POST /v2/recipes ignores every server-managed field",
    what: "a recipe POST answers the client's `_id` as its id",
    async handle(c) {
      if (c.method !== "POST" || c.path !== "/v2/recipes") return;
      const sent = c.json();
      const u = await c.forward();
      return u.status === 201 && typeof sent?._id === "string" ? json({ id: sent._id }, 201) : u;
    },
  },
  {
    name: "recipe-keeps-version-fields", area: "recipes", caughtBy: "POST /v2/recipes ignores every server-managed field",
    what: "a recipe POST keeps the `_` fields it was sent other than `_id`, `_uid`, `_public` and `_type`",
    handle: createKeeps("/v2/recipes", (body) => underscored(body, ["_id", "_uid", "_public", "_type"])),
  },
  {
    name: "recipe-patch-keeps-underscore", area: "recipes", caughtBy: "PATCH /v2/recipes/{id} ignores every server-managed field",
    what: "a recipe PATCH keeps the `_` fields it was sent other than `_id` and `_public`",
    handle: patchKeeps("/v2/recipes/", ["_id", "_public"]),
  },
  {
    name: "recipe-efficiency-edge-exclusive", area: "recipes", caughtBy: "efficiency=100 answers 200",
    what: "a recipe with efficiency=100 fails validation",
    async handle(c) {
      if ((c.method === "POST" || c.method === "PATCH") && c.path.startsWith("/v2/recipes") && c.json()?.efficiency === 100) return validationError("efficiency");
    },
  },
  {
    name: "recipe-og-unbounded", area: "recipes", caughtBy: "og=1.201 answers 400",
    what: "a recipe og above 1.200 is accepted (stored as 1.200)",
    async handle(c) {
      const og = c.method === "POST" && c.path === "/v2/recipes" ? c.json()?.og : undefined;
      if (typeof og === "number" && og > 1.2) return c.forward({ body: JSON.stringify({ ...c.json(), og: 1.2 }) });
    },
  },
  {
    name: "inventory-adjust-wins", area: "inventory", caughtBy: "inventory wins",
    what: "an inventory PATCH with both fields applies inventory_adjust",
    async handle(c) {
      const body = c.method === "PATCH" && c.path.startsWith("/v2/inventory/") ? c.json() : undefined;
      if (body && "inventory" in body && "inventory_adjust" in body) {
        const { inventory: _dropped, ...rest } = body;
        return c.forward({ body: JSON.stringify(rest) });
      }
    },
  },
  {
    name: "inventory-keeps-updated-at", area: "inventory", caughtBy: "POST ignores root fields starting with _",
    what: "an inventory POST keeps the `updatedAt` it was sent",
    handle: createKeeps("/v2/inventory/", (body) => (body?.updatedAt === undefined ? {} : { updatedAt: body.updatedAt })),
  },
  {
    name: "inventory-partial-keeps-underscore", area: "inventory", caughtBy: "partial update mode ignores fields starting with _",
    what: "an inventory PATCH in partial mode keeps `_` fields other than `_id`",
    handle: patchKeeps("/v2/inventory/", ["_id"]),
  },
  {
    name: "inventory-exists-descending", area: "inventory", caughtBy: "inventory_exists=True keeps only items",
    what: "inventory_exists=True lists in descending stock order",
    async handle(c) {
      if (c.method !== "GET" || !inventoryPath.test(c.path) || c.query.get("inventory_exists") !== "True") return;
      const u = await c.forward();
      if (u.status !== 200) return u;
      return json((JSON.parse(u.body) as { inventory: number }[]).sort((a, b) => b.inventory - a.inventory));
    },
  },
  {
    name: "inventory-partial-number-accepted", area: "inventory", caughtBy: "inventory=\"12abc\" is refused",
    what: "inventory \"12abc\" is read as 12",
    async handle(c) {
      const body = c.method === "PATCH" && c.path.startsWith("/v2/inventory/") ? c.json() : undefined;
      const partial = (v: unknown) => typeof v === "string" && /^-?\d+(\.\d+)?[a-z]+$/i.test(v);
      if (!body || !(partial(body.inventory) || partial(body.inventory_adjust))) return;
      const fixed = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, partial(v) ? parseFloat(v as string) : v]));
      return c.forward({ body: JSON.stringify(fixed) });
    },
  },
];

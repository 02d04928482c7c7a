// What the extensions area makes for its checks: one recipe (POST /v2/recipes, documented), the
// batches it starts with POST /v2/batches and its webhook subscription (additions). Everything is named with the run prefix,
// recorded here, and deleted by the area's teardown; the run's cleanup by prefix catches the rest.
import type { Exchange, Request } from "../../client.ts";
import type { Ctx } from "../../engine.ts";
import { parseJson } from "../../client.ts";
import { expectObject } from "../../expect.ts";
import { recipeBody } from "../../records.ts";
import type { Entry } from "../../data.ts";

interface Made { recipes: string[]; batches: string[]; webhooks: string[] }
const MADE = new WeakMap<Ctx, Made>();

export function made(ctx: Ctx): Made {
  let m = MADE.get(ctx);
  if (!m) MADE.set(ctx, (m = { recipes: [], batches: [], webhooks: [] }));
  return m;
}

/** A main-key call. */
export function call(ctx: Ctx, req: Omit<Request, "account"> & { account?: Request["account"] }): Promise<Exchange> {
  return ctx.client.call({ account: ctx.main, ...req });
}

/** 404 or 405 on a path the addition defines: the target does not offer it, which is a skip, not a failure. */
export function skipUnlessOffered(ctx: Ctx, ex: Exchange, what: string): void {
  if (ex.status === 404 || ex.status === 405) ctx.skip(`the target does not offer ${what} (answered ${ex.status})`);
}

/** The id of a 201 `{"id": …}` answer (of any 2xx with `any`), or undefined. */
function createdId(ex: Exchange, any = false): string | undefined {
  const v = ex.status === 201 || (any && ex.status >= 200 && ex.status < 300) ? parseJson(ex) : undefined;
  const id = v?.ok ? (v.value as { id?: unknown })?.id : undefined;
  return typeof id === "string" && id ? id : undefined;
}

/** The new batch's id; anything but 201 `{"id": …}` skips (the first check of POST /v2/batches judges that answer). */
export function createdOrSkip(ctx: Ctx, ex: Exchange): string {
  const id = createdId(ex);
  if (!id) ctx.skip(`POST /v2/batches answered ${ex.status} ${ex.body.slice(0, 80)}, not 201 {"id": …}`);
  return id;
}

/** POST /v2/batches as sent; a batch it creates (any 2xx with an id) is recorded for deletion, its delete counted now. */
export async function postBatch(ctx: Ctx, json: unknown, account = ctx.main, raw?: string): Promise<Exchange> {
  const ex = await ctx.client.call({ method: "POST", path: "/v2/batches", account, ...(raw === undefined ? { json } : { raw }) });
  const id = createdId(ex, true);
  if (id && account === ctx.main) {
    made(ctx).batches.push(id);
    ctx.budget.reserve("main", 1);
  }
  return ex;
}

/** The kit's recipe as the target stores it (read alone), made once per run. */
export function kitRecipe(ctx: Ctx): Promise<Entry> {
  return ctx.once("extensions recipe", async () => {
    ctx.budget.reserve("main", 1);
    const ex = await call(ctx, { method: "POST", path: "/v2/recipes", json: recipeBody(ctx.runPrefix, "ext-recipe") });
    const id = createdId(ex);
    if (!id) ctx.skip(`could not create the recipe a batch starts from: POST /v2/recipes answered ${ex.status}`);
    made(ctx).recipes.push(id);
    return expectObject(await call(ctx, { method: "GET", path: `/v2/recipes/${id}` }));
  });
}

/** The first POST /v2/batches {recipeId} exchange of the run (the batch creation checks judge it). */
export function firstCreate(ctx: Ctx): Promise<Exchange> {
  return ctx.once("extensions first batch", async () => {
    const recipe = await kitRecipe(ctx);
    const ex = await postBatch(ctx, { recipeId: recipe._id });
    skipUnlessOffered(ctx, ex, "POST /v2/batches");
    return ex;
  });
}

/**
 * A batch of the kit's for the checks of other additions, made once per key with POST /v2/batches.
 * When that does not work, those checks skip: their failure belongs to the batch creation checks.
 */
export function kitBatch(ctx: Ctx, key: string, extra: Record<string, unknown> = {}): Promise<string> {
  return ctx.once(`extensions batch ${key}`, async () => {
    const recipe = await kitRecipe(ctx);
    const ex = await postBatch(ctx, { recipeId: recipe._id, name: `${ctx.runPrefix}${key}`, ...extra });
    const id = createdId(ex);
    if (!id) ctx.needData("a batch the kit creates with POST /v2/batches", `needs a batch made with POST /v2/batches, which answered ${ex.status}`);
    return id;
  });
}

/** Deletes what the area made (essential calls: they were counted when the records were made). */
export async function deleteMade(ctx: Ctx): Promise<void> {
  const m = made(ctx);
  for (const [path, ids] of [["/v2/webhooks", m.webhooks], ["/v2/batches", m.batches], ["/v2/recipes", m.recipes]] as const) {
    for (const id of ids.splice(0)) await call(ctx, { method: "DELETE", path: `${path}/${id}`, essential: true });
  }
}

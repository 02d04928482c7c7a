// Bounds of objects nested in a recipe, and of the ingredient objects as inventory items: the
// inclusive edges accepted on create, the first value outside refused. Generated from doc.ts BOUNDS.
// Every record made here is named with the run prefix and deleted by the area's teardown.
import { CheckFailure, type Check, type Ctx } from "../engine.ts";
import { COLLECTIONS, INVENTORY_BOUNDS, NESTED_BOUNDS, boundCases, itemPath, setPath, type Bound, type BoundCase, type Collection } from "../doc.ts";
import { expectArray, expectCreated, fail, madeId } from "../expect.ts";
import { BudgetExhausted, type Exchange } from "../client.ts";
import { INVENTORY_BODIES } from "../records.ts";
import { allowance, sampleCases } from "../property.ts";
import type { Made } from "./inventory-items.ts";

/** Where a group of cases is sent: the recipe collection, or one inventory collection. */
interface Target { path: string; body(ctx: Ctx, suffix: string, cases: BoundCase[]): Record<string, unknown> }

const RECIPE: Target = {
  path: "/v2/recipes",
  body(ctx, suffix, cases) {
    const body: Record<string, unknown> = { name: `${ctx.runPrefix}${suffix}` };
    for (const c of cases) {
      // An item of an array (an ingredient, a fermentation step) is named, as recipes carry them.
      const item = /^(.*\.\d+)\./.exec(c.bound.field)?.[1];
      if (item) setPath(body, `${item}.name`, "Contract Kit");
      setPath(body, c.bound.field, c.value);
    }
    return body;
  },
};

const inventoryTarget = (c: Collection): Target => ({
  path: `/v2/inventory/${c}`,
  body(ctx, suffix, cases) {
    const body: Record<string, unknown> = structuredClone({ name: `${ctx.runPrefix}${suffix}`, ...INVENTORY_BODIES[c] });
    for (const k of cases) setPath(body, itemPath(k.bound), k.value);
    return body;
  },
});

const label = (c: BoundCase) => `${c.bound.field}=${c.value}`;
const edges = (bounds: Bound[], what: string) => bounds.flatMap(boundCases).filter((c) => c.accepted && c.what === what);
const parts = (bounds: Bound[]) => [...new Set(bounds.map((b) => b.part))].join(", ");

async function create(ctx: Ctx, made: Made, target: Target, suffix: string, cases: BoundCase[]): Promise<Exchange> {
  const ex = await ctx.client.call({ method: "POST", path: target.path, account: ctx.main, json: target.body(ctx, suffix, cases) });
  // Tracked for the teardown whatever the check then makes of the answer.
  const id = madeId(ex);
  if (id) made.created.add(`${target.path}/${id}`);
  return ex;
}

/**
 * Deletes a record made by a check at once, within the area's share, so the calls set aside for
 * essential work are not spent on it; out of budget, the teardown deletes it.
 */
async function deleteNow(ctx: Ctx, made: Made, path: string): Promise<void> {
  try {
    const ex = await ctx.client.call({ method: "DELETE", path, account: ctx.main });
    if (ex.status === 200) made.created.delete(path);
  } catch (e) {
    if (!(e instanceof BudgetExhausted)) throw e;
  }
}

/**
 * Edges sent together in one record; a refused group is split in halves until each refused edge
 * stands alone, so a conforming target costs one call per group and a refusal names its field.
 * Returns the edges refused alone, each with its exchange.
 */
async function acceptedEdges(ctx: Ctx, made: Made, target: Target, cases: BoundCase[]): Promise<{ c: BoundCase; ex: Exchange }[]> {
  const ex = await create(ctx, made, target, "bound-edges", cases);
  if (ex.status === 201) { await deleteNow(ctx, made, `${target.path}/${expectCreated(ex)}`); return []; }
  // Made, with another success status: no edge was refused, and splitting would only make more records.
  if (ex.status >= 200 && ex.status < 300) fail(`POST ${target.path} answered ${ex.status} where the document says 201`, ex);
  if (cases.length === 1) return [{ c: cases[0]!, ex }];
  const half = Math.ceil(cases.length / 2);
  return [...await acceptedEdges(ctx, made, target, cases.slice(0, half)), ...await acceptedEdges(ctx, made, target, cases.slice(half))];
}

function edgeCheck(made: Made, name: string, groups: () => { target: Target; cases: BoundCase[] }[]): Check {
  return {
    name,
    tags: ["always"],
    async run(ctx) {
      const refused: { c: BoundCase; ex: Exchange }[] = [];
      for (const g of groups()) refused.push(...await acceptedEdges(ctx, made, g.target, g.cases));
      if (refused.length) fail(`inclusive edges refused: ${refused.map((r) => `${label(r.c)} (${r.c.what}, ${r.ex.status})`).join("; ")}`, refused[0]!.ex);
    },
  };
}

/** Calls the sampled refusal checks may take of the main key's budget, at most. */
const SAMPLE_SHARE = 0.2;
/**
 * Calls left for each check still to run in the area. Plain checks make one to three; the running
 * average would count the setup's calls too and starve the sample when the area runs first.
 */
const CALLS_PER_PENDING_CHECK = 2;

function outsideCheck(made: Made, name: string, cases: { target: Target; c: BoundCase }[]): Check {
  return {
    name,
    tags: ["sampled"],
    async run(ctx) {
      const sample = sampleCases(cases, allowance(ctx, "main", SAMPLE_SHARE, CALLS_PER_PENDING_CHECK), ctx.seedFor(name));
      const accepted: { c: BoundCase; failure: CheckFailure }[] = [];
      for (const { target, c } of sample) {
        const ex = await create(ctx, made, target, `bound-${c.bound.field}`, [c]);
        try { expectArray(ex, 400); } catch (e) {
          if (!(e instanceof CheckFailure)) throw e;
          accepted.push({ c, failure: e });
        }
      }
      if (accepted.length) {
        fail(`first values outside not refused with 400 and a JSON array (${accepted.length} of ${sample.length} tried, ${cases.length} in all): ` +
          accepted.map((a) => `${label(a.c)} (${a.c.what}): ${a.failure.message}`).join("; "), accepted[0]!.failure.exchange);
      }
    },
  };
}

/** [Recipes] create: every bounded field of a nested object, at its edges and just outside. */
export function recipeNestedBoundChecks(made: Made): Check[] {
  const part = parts(NESTED_BOUNDS);
  return [
    edgeCheck(made,
      `POST /v2/recipes answers 201 with each of the ${NESTED_BOUNDS.length} bounded fields of nested objects at its inclusive edges (lower edges together, upper edges together; a refused group is split until the refused edge stands alone) [Recipes; ${part}]`,
      () => ["lower edge, inclusive", "upper edge, inclusive"].map((w) => ({ target: RECIPE, cases: edges(NESTED_BOUNDS, w) }))),
    outsideCheck(made,
      `POST /v2/recipes answers 400 with a JSON array for the first value outside each bound of a nested object, each in a recipe of its own (sampled to the call budget) [Recipes; ${part}]`,
      NESTED_BOUNDS.flatMap(boundCases).filter((c) => !c.accepted).map((c) => ({ target: RECIPE, c }))),
  ];
}

/** [Inventory] create: every bounded ingredient field, at its edges and just outside, in its collection. */
export function inventoryBoundChecks(made: Made): Check[] {
  const part = parts(INVENTORY_BOUNDS);
  const of = (c: Collection) => INVENTORY_BOUNDS.filter((b) => b.collection === c);
  return [
    edgeCheck(made,
      `POST /v2/inventory/{collection} answers 201 with each of the ${INVENTORY_BOUNDS.length} bounded ingredient fields at its inclusive edges (per collection, lower edges together, upper edges together; a refused group is split until the refused edge stands alone) [Inventory; ${part}]`,
      () => COLLECTIONS.flatMap((c) => ["lower edge, inclusive", "upper edge, inclusive"].map((w) => ({ target: inventoryTarget(c), cases: edges(of(c), w) })))),
    outsideCheck(made,
      `POST /v2/inventory/{collection} answers 400 with a JSON array for the first value outside each bound of an ingredient field, each in an item of its own (sampled to the call budget) [Inventory; ${part}]`,
      INVENTORY_BOUNDS.flatMap(boundCases).filter((c) => !c.accepted).map((c) => ({ target: inventoryTarget(c.bound.collection!), c }))),
  ];
}

/** Deletes what the checks made (essential calls: they run whatever the budget). */
export async function deleteMade(ctx: Ctx, made: Made): Promise<void> {
  for (const path of made.created) await ctx.client.call({ method: "DELETE", path, account: ctx.main, essential: true });
  made.created.clear();
}

import { FERMENTABLES, HOPS, MISCS, YEASTS } from "./catalog.ts";
import { DAY, HOUR, recordMeta } from "./meta.ts";
import { round, type Random } from "./random.ts";

// Builds one batch the way the service returns it: a copy of its recipe, the
// ingredients with their inventory-tracking fields, status-change notes, cost
// and calendar events. Measured figures that follow from others (efficiency,
// attenuation, ABV) are derived here so they always agree.

type Obj = Record<string, unknown>;

export type BatchStatus = "Planning" | "Brewing" | "Fermenting" | "Conditioning" | "Completed" | "Archived";

export interface BatchPlan {
  _id: string;
  batchNo: number;
  status: BatchStatus;
  recipe: Obj;
  brewDate: number;
  fermentationStartDate?: number;
  bottlingDate?: number;
  /** Values the brewer entered; derived ones are added by `buildBatch`. */
  measured: Obj;
  /** Status changes, oldest first: [status, time, note text]. */
  changes: Array<[BatchStatus, number, string]>;
  extra: Obj;
}

const STOCK: Record<string, Obj> = Object.fromEntries(
  [FERMENTABLES, HOPS, MISCS, YEASTS].flatMap((group) => Object.values(group)).map((item) => [item._id as string, item]),
);

function tracked(entry: Obj, unit: string, removed: boolean): Obj {
  const stock = STOCK[entry._id as string];
  const amount = entry.amount as number;
  const costPerAmount = stock.costPerAmount as number;
  return {
    ...entry,
    inventory: stock.inventory, costPerAmount, totalCost: round(amount * costPerAmount, 2), displayAmount: amount,
    removedFromInventory: removed, removedAmount: removed ? amount : 0, removedUnit: unit, inventoryUnit: unit,
    checked: removed, notInRecipe: false,
  };
}

function ingredients(recipe: Obj, removed: boolean): Record<string, Obj[]> {
  const list = (key: string) => recipe[key] as Obj[];
  return {
    batchFermentables: list("fermentables").map((f) => tracked(f, "kg", removed)),
    batchHops: list("hops").map((h) => tracked(h, "g", removed)),
    batchMiscs: list("miscs").map((m) => tracked(m, m.unit as string, removed)),
    batchYeasts: list("yeasts").map((y) => tracked(y, y.unit as string, removed)),
    batchFermentablesLocal: [], batchHopsLocal: [], batchMiscsLocal: [], batchYeastsLocal: [],
  };
}

function cost(parts: Record<string, Obj[]>, bottlingLiters: number): Obj {
  const sum = (items: Obj[]) => round(items.reduce((s, i) => s + (i.totalCost as number), 0), 2);
  const fermentables = sum(parts.batchFermentables);
  const hops = sum(parts.batchHops);
  const miscs = sum(parts.batchMiscs);
  const yeasts = sum(parts.batchYeasts);
  const total = round(fermentables + hops + miscs + yeasts, 2);
  const share = (part: number) => Math.round((part / total) * 100);
  return {
    fermentables, fermentablesShare: share(fermentables), hops, hopsShare: share(hops),
    miscs, miscsShare: share(miscs), yeasts, yeastsShare: share(yeasts),
    total, perBottlingLiter: round(total / bottlingLiters, 2),
  };
}

/** Efficiencies compare measured gravity points and volumes with the recipe's. */
function derived(plan: BatchPlan): Obj {
  const r = plan.recipe;
  const m = plan.measured;
  const efficiency = r.efficiency as number;
  const out: Obj = {};
  if (typeof m.measuredPreBoilGravity === "number" && typeof m.measuredBoilSize === "number") {
    const expected = ((r.preBoilGravity as number) - 1) * (r.boilSize as number);
    out.measuredMashEfficiency = round(((r.mashEfficiency as number) * (m.measuredPreBoilGravity - 1) * m.measuredBoilSize) / expected, 2);
  }
  if (typeof m.measuredOg !== "number") return out;
  const og = m.measuredOg;
  const fg = typeof m.measuredFg === "number" ? m.measuredFg : (r.fg as number);
  const recipePoints = ((r.og as number) - 1) * (r.batchSize as number);
  const kettleSize = m.measuredKettleSize as number;
  const postBoil = (r.equipment as Obj).postBoilKettleVol as number;
  return {
    ...out,
    measuredEfficiency: round((efficiency * (og - 1) * (m.measuredBatchSize as number)) / recipePoints, 2),
    measuredKettleEfficiency: round((efficiency * (og - 1) * kettleSize) / (((r.og as number) - 1) * postBoil), 2),
    measuredConversionEfficiency: null,
    measuredAttenuation: round(((og - fg) / (og - 1)) * 100, 1),
    measuredAbv: round((og - fg) * 131.25, 2),
  };
}

function notes(plan: BatchPlan): Obj[] {
  return plan.changes
    .map(([status, timestamp, note]) => ({ timestamp, status, note, type: "statusChanged" }))
    .reverse();
}

function calendarEvent(eventType: string, title: string, time: number, now: number, text: string | null, description: string, html = description): Obj {
  return { eventType, title, time, eventText: text, description, descriptionHTML: html, dayEvent: eventType !== "event-batch-ferm-step", active: time > now };
}

function events(plan: BatchPlan, now: number): Obj[] {
  const r = plan.recipe;
  const n = plan.batchNo;
  const out: Obj[] = [
    { ...calendarEvent("event-batch-brew-day", `Brew Day - Batch #${n}`, plan.brewDate, now, "Brew Day", `Brew Day (${r.name})`), notifyTime: plan.brewDate },
    calendarEvent("event-batch-brew-day-reminder", `Brew Day - Reminder - Batch #${n}`, plan.brewDate - DAY, now,
      "Brew Day &mdash; Reminder", `You have a planned batch upcoming (${r.name})`),
  ];
  const start = plan.fermentationStartDate ?? plan.brewDate;
  let elapsed = 0;
  for (const step of (r.fermentation as Obj).steps as Obj[]) {
    if (elapsed > 0) {
      const text = `${step.name} (Fermentation) @ ${step.stepTemp} °C`;
      out.push(calendarEvent("event-batch-ferm-step", `Fermentation Step - Batch #${n}`, start + elapsed * DAY, now, text,
        `Fermentation Profile Step: ${text}`, `Fermentation Profile Step:<br>${text}`));
    }
    elapsed += step.stepTime as number;
  }
  for (const hop of (r.hops as Obj[]).filter((h) => h.use === "Dry Hop")) {
    out.push(calendarEvent("event-batch-dry-hop", `Dry Hop - Batch #${n}`, start + (hop.day as number) * DAY, now, null,
      `${hop.name} (${hop.amount} g)`, `${hop.name} (<b>${hop.amount} g</b>)`));
  }
  if (plan.bottlingDate !== undefined) {
    out.push(calendarEvent("event-batch-bottling-day", `Bottling Day - Batch #${n}`, plan.bottlingDate, now, "Bottling Day", `Bottling Day (${r.name})`));
  }
  return out;
}

function estimated(r: Obj): Obj {
  return {
    estimatedOg: round(r.og as number, 3), estimatedFg: r.fg, estimatedIbu: Math.round(r.ibu as number),
    estimatedColor: r.color, estimatedBuGuRatio: r.buGuRatio, estimatedRbRatio: r.rbRatio,
    estimatedTotalGravity: round(r.og as number, 3),
  };
}

export function buildBatch(plan: BatchPlan, now: number, random: Random): Obj {
  const recipe = structuredClone(plan.recipe);
  const parts = ingredients(recipe, plan.status !== "Planning");
  const bottling = (plan.measured.measuredBottlingSize as number | undefined) ?? ((recipe.equipment as Obj).bottlingVolume as number);
  const created = Math.min(plan.brewDate, now) - 5 * DAY;
  const updated = Math.max(created + HOUR, ...plan.changes.map(([, time]) => time));
  return {
    _id: plan._id, name: recipe.name, batchNo: plan.batchNo, status: plan.status, brewer: "Demo Brewer", hidden: false,
    brewDate: plan.brewDate,
    ...(plan.fermentationStartDate !== undefined ? { fermentationStartDate: plan.fermentationStartDate } : {}),
    ...(plan.bottlingDate !== undefined ? { bottlingDate: plan.bottlingDate } : {}),
    recipe,
    ...estimated(recipe),
    ...plan.measured,
    ...derived(plan),
    ...parts,
    notes: notes(plan),
    measurements: [],
    batchNotes: "",
    cost: cost(parts, bottling),
    events: events(plan, now),
    attachmentCount: 0,
    ...plan.extra,
    _type: "batch",
    ...recordMeta(random, created, updated),
  };
}

import { FERMENTABLES, HOPS, MISCS, YEASTS } from "./catalog.ts";
import { DAY, HOUR, recordMeta } from "./meta.ts";
import type { Random } from "./random.ts";

type Item = Record<string, unknown>;

export interface DemoInventory {
  fermentables: Item[];
  hops: Item[];
  miscs: Item[];
  yeasts: Item[];
}

/** Each item was added about a year ago and last touched when stock last moved. */
function stocked(items: Record<string, Item>, now: number, random: Random, offsetDays: number): Item[] {
  return Object.values(items).map((item, index) => {
    const created = now - (400 - offsetDays - index * 7) * DAY;
    const updated = now - (20 + index * 3) * DAY - (index + 1) * HOUR;
    return { ...item, ...recordMeta(random, created, updated) };
  });
}

export function buildInventory(now: number, random: Random): DemoInventory {
  return {
    fermentables: stocked(FERMENTABLES, now, random, 0),
    hops: stocked(HOPS, now, random, 1),
    miscs: stocked(MISCS, now, random, 2),
    yeasts: stocked(YEASTS, now, random, 3),
  };
}

import { buildDemoData } from "../../src/demo/index.ts";
import { createRandom, round, type Random } from "../../src/demo/random.ts";

// Realistic documents for the benchmark, varied from the demo data set's batches (13–18 KB each, with
// a full recipe copy), recipes and inventory items. Seeded, so every machine builds the same data.

type Doc = Record<string, unknown>;

/** A fixed instant, so the generated documents do not depend on the day they were built. */
const EPOCH = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BREWERS = ["Alex", "Sam", "Kim", "Robin", "Jo", "Charlie", null];
const STYLES = ["Pale Ale", "Pilsner", "Stout", "IPA", "Saison", "Porter", "Bitter", "Hefeweizen"];

export function idFrom(random: Random): string {
  let id = "";
  for (let i = 0; i < 20; i++) id += ALNUM[Math.floor(random() * ALNUM.length)];
  return id;
}

const demo = buildDemoData(EPOCH);
const strip = ({ readings: _r, brewTracker: _t, ...fields }: Doc) => fields;
const BATCHES = demo.batches.map(strip);
const READING = (demo.batches.flatMap((b) => (b.readings as Doc[] | undefined) ?? []).find((r) => r.type === "iSpindel") ?? {
  time: EPOCH, sg: 1.05, temp: 18, id: "BENCHSPINDEL", type: "iSpindel",
}) as Doc;

export interface BatchOptions {
  count: number;
  seed: number;
  /** How many of the batches (the first ones generated) carry `readingsPerBatch` readings. */
  withReadings?: number;
  readingsPerBatch?: number;
}

/** Import-document batches: a demo batch each, with its own id, name, number, date and status. */
export function* batches(opts: BatchOptions): Generator<Doc> {
  const random = createRandom(opts.seed);
  for (let n = 0; n < opts.count; n++) {
    const template = BATCHES[n % BATCHES.length];
    const style = STYLES[Math.floor(random() * STYLES.length)];
    const brewDate = EPOCH - Math.floor(random() * 3650) * DAY;
    const doc: Doc = {
      ...template,
      _id: idFrom(random),
      name: `${style} #${n + 1}`,
      batchNo: n + 1,
      brewer: BREWERS[Math.floor(random() * BREWERS.length)],
      brewDate,
      measuredOg: round(1.04 + random() * 0.03, 3),
    };
    if (n < (opts.withReadings ?? 0)) doc.readings = readings(random, brewDate, opts.readingsPerBatch ?? 200);
    yield doc;
  }
}

/** An iSpindel every 30 minutes, gravity falling towards the final gravity. */
export function readings(random: Random, start: number, count: number): Doc[] {
  const og = 1.045 + random() * 0.02;
  const out: Doc[] = [];
  for (let i = 0; i < count; i++) {
    const sg = round(1.01 + (og - 1.01) * Math.exp(-i / 60), 4);
    out.push({ ...READING, time: start + i * 1_800_000, sg, temp: round(18 + random(), 1), angle: round(30 + (sg - 1) * 400, 5) });
  }
  return out;
}

export function recipes(count: number, seed: number): Doc[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, (_, n) => ({
    ...demo.recipes[n % demo.recipes.length],
    _id: idFrom(random),
    name: `${STYLES[n % STYLES.length]} recipe ${n + 1}`,
  }));
}

/** `count` items over the four collections, each a demo item with its own id, name and stock. */
export function inventory(count: number, seed: number): Record<"fermentables" | "hops" | "miscs" | "yeasts", Doc[]> {
  const random = createRandom(seed);
  const out = { fermentables: [] as Doc[], hops: [] as Doc[], miscs: [] as Doc[], yeasts: [] as Doc[] };
  const names = Object.keys(out) as Array<keyof typeof out>;
  for (let n = 0; n < count; n++) {
    const c = names[n % names.length];
    const templates = demo[c];
    const t = templates[Math.floor(n / names.length) % templates.length];
    out[c].push({ ...t, _id: idFrom(random), name: `${String(t.name)} (${n + 1})`, inventory: round(random() * 5000, 2) });
  }
  return out;
}

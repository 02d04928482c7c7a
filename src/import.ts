import { depthOf, isPlainObject, MAX_DEPTH, type Doc } from "./lib/json.ts";
import { newId } from "./lib/ids.ts";
import { isBatchStatus, INGREDIENT_COLLECTIONS, type Kind } from "./resources.ts";
import type { ImportBatch, ImportDevice, ImportSet } from "./store/types.ts";
import type { ValidationIssue } from "./schema/issues.ts";
import { DEVICE_TYPES, isDeviceName } from "./devices/parse.ts";
// The validators alone, not the schemas they were generated from (src/schema/index.ts): an import loads no
// schema-building code.
import { validateBatch, validateBrewTracker, validateIngredient, validateReading, validateRecipe } from "./schema/validate.ts";

// The import document (README, "Import"): one JSON object with optional arrays `batches`, `recipes`,
// `fermentables`, `hops`, `miscs`, `yeasts`, each element shaped as the API returns it. A batch element
// may carry `readings` and `brewTracker`, which feed their endpoints and are not batch fields. Two
// more members carry what export writes of devices: `devices` (each with the readings it kept while
// attached to no batch) and `loggingId` (the logging id's digest, never the id).

export class ImportError extends Error {}

const SECTIONS = ["batches", "recipes", ...INGREDIENT_COLLECTIONS] as const;
const SECTION_KIND: Record<(typeof SECTIONS)[number], Kind> = {
  batches: "batch",
  recipes: "recipe",
  fermentables: "fermentables",
  hops: "hops",
  miscs: "miscs",
  yeasts: "yeasts",
};

export type ElementCheck = (kind: Kind, doc: Doc) => string[];

const messages = (issues: ValidationIssue[], prefix = "") => issues.slice(0, 5).map((i) => prefix + i.message);

/** The object schemas (src/schema): the same rules the API applies to what clients send. */
export const schemaCheck: ElementCheck = (kind, doc) => {
  if (kind === "batch") return messages(validateBatch(doc));
  if (kind === "recipe") return messages(validateRecipe(doc));
  return messages(validateIngredient(kind, doc));
};

/** Type checks every import needs; schema validation adds more through `check`. */
function basicIssues(kind: Kind, doc: Doc): string[] {
  const issues: string[] = [];
  if ("_id" in doc && (typeof doc._id !== "string" || doc._id === "" || doc._id.length > 200)) {
    issues.push("_id must be a non-empty string of at most 200 characters");
  }
  if (kind === "batch" && "status" in doc && !isBatchStatus(doc.status)) issues.push("status must be one of the six batch statuses");
  return issues;
}

/**
 * Checks a parsed import document and turns it into what the store writes. Throws ImportError naming
 * the first bad element; nothing is written by this function.
 */
/** Told after each element is checked: how many are done of how many in all the sections. */
export type ImportProgress = (done: number, total: number) => void;

export function parseImport(input: unknown, check: ElementCheck | undefined = schemaCheck, progress?: ImportProgress): ImportSet {
  if (!isPlainObject(input)) throw new ImportError("the import document must be a JSON object");
  if (depthOf(input) > MAX_DEPTH + 2) throw new ImportError(`the import document is nested deeper than ${MAX_DEPTH} levels`);
  const known: readonly string[] = [...SECTIONS, "devices", "loggingId"];
  const unknown = Object.keys(input).filter((k) => !known.includes(k));
  if (unknown.length) throw new ImportError(`unknown section(s): ${unknown.join(", ")} (expected ${known.join(", ")})`);
  const set: ImportSet = { batches: [], docs: [] };
  const total = SECTIONS.reduce((n, section) => n + (Array.isArray(input[section]) ? (input[section] as unknown[]).length : 0), 0);
  let done = 0;
  for (const section of SECTIONS) {
    const items = input[section];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw new ImportError(`${section} must be an array`);
    const kind = SECTION_KIND[section];
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const where = `${section}[${index}]`;
      if (!isPlainObject(item)) throw new ImportError(`${where}: must be a JSON object`);
      const { readings, brewTracker, ...fields } = item as Doc;
      const doc: Doc = kind === "batch" ? fields : (item as Doc);
      const issues = [...basicIssues(kind, doc), ...(check ? check(kind, doc) : [])];
      if (kind === "batch" && issues.length === 0) issues.push(...batchExtras(readings, brewTracker));
      if (issues.length) throw new ImportError(`${where}${doc._id ? ` (_id ${String(doc._id)})` : ""}: ${issues.join("; ")}`);
      const id = typeof doc._id === "string" ? doc._id : newId();
      if (seen.has(id)) throw new ImportError(`${where}: duplicate _id ${id}`);
      seen.add(id);
      const withId = { ...doc, _id: id };
      if (kind === "batch") {
        const batch: ImportBatch = { doc: withId };
        if (readings !== undefined) batch.readings = readings as Doc[];
        if (brewTracker !== undefined) batch.brewTracker = brewTracker as Doc;
        set.batches.push(batch);
      } else {
        set.docs.push({ kind: kind as Exclude<Kind, "batch">, doc: withId });
      }
      progress?.(++done, total);
    });
  }
  if (input.devices !== undefined) set.devices = parseDevices(input.devices);
  if (input.loggingId !== undefined) set.loggingId = parseLoggingId(input.loggingId);
  return set;
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isName = (v: unknown): v is string => typeof v === "string" && v !== "" && v.length <= 200;

function parseDevices(devices: unknown): ImportDevice[] {
  if (!Array.isArray(devices)) throw new ImportError("devices must be an array");
  const seen = new Set<string>();
  return devices.map((d, index) => {
    const where = `devices[${index}]`;
    if (!isPlainObject(d)) throw new ImportError(`${where}: must be a JSON object`);
    const issues: string[] = [];
    // As a post or the API could make it: a known type, and a name a device may have.
    if (!(DEVICE_TYPES as readonly unknown[]).includes(d.type)) issues.push(`type must be one of ${DEVICE_TYPES.join(", ")}`);
    if (typeof d.name !== "string" || !isDeviceName(d.name)) issues.push("name must be 1 to 64 printable characters without /");
    if (d.batchId !== null && !isName(d.batchId)) issues.push("batchId must be a batch's _id or null");
    if (d.lastLog !== null && !isNumber(d.lastLog)) issues.push("lastLog must be a number (Unix ms) or null");
    if (d.lastData !== null && !isPlainObject(d.lastData)) issues.push("lastData must be an object or null");
    if (!isPlainObject(d.settings) || !isNumber(d.settings.gravityOffset) || !isNumber(d.settings.tempOffset)) {
      issues.push("settings must be {gravityOffset, tempOffset} with numbers");
    }
    if (!isNumber(d.firstSeen)) issues.push("firstSeen must be a number (Unix ms)");
    if (issues.length === 0) issues.push(...readingIssues(d.readings));
    if (issues.length) throw new ImportError(`${where}: ${issues.join("; ")}`);
    const key = `${d.type}\u0000${d.name}`;
    if (seen.has(key)) throw new ImportError(`${where}: duplicate device ${String(d.type)} ${String(d.name)}`);
    seen.add(key);
    const settings = d.settings as { gravityOffset: number; tempOffset: number };
    const device: ImportDevice = {
      type: d.type as string,
      name: d.name as string,
      batchId: d.batchId as string | null,
      lastLog: d.lastLog as number | null,
      lastData: d.lastData as Doc | null,
      settings: { gravityOffset: settings.gravityOffset, tempOffset: settings.tempOffset },
      firstSeen: d.firstSeen as number,
    };
    if (d.readings !== undefined) device.readings = d.readings as Doc[];
    return device;
  });
}

function parseLoggingId(value: unknown): ImportSet["loggingId"] {
  if (!isPlainObject(value) || typeof value.digest !== "string" || !/^[0-9a-f]{64}$/.test(value.digest) || !isNumber(value.createdAt)) {
    throw new ImportError("loggingId must be {digest: 64 hexadecimal characters, createdAt: Unix ms}");
  }
  if (value.secretTag !== undefined && (typeof value.secretTag !== "string" || !/^[0-9a-f]{16}$/.test(value.secretTag))) {
    throw new ImportError("loggingId.secretTag must be 16 hexadecimal characters");
  }
  return { digest: value.digest, createdAt: value.createdAt, ...(value.secretTag === undefined ? {} : { secretTag: value.secretTag }) };
}

/** A list of Reading Objects, each with a numeric time; undefined (absent) is none. */
function readingIssues(readings: unknown): string[] {
  const issues: string[] = [];
  if (readings === undefined) return issues;
  if (!Array.isArray(readings)) return ["readings must be an array"];
  for (let i = 0; i < readings.length && issues.length === 0; i++) {
    const r = readings[i];
    if (!isPlainObject(r) || typeof r.time !== "number" || !Number.isFinite(r.time)) {
      issues.push(`readings[${i}] must be an object with a numeric time (Unix ms)`);
    } else {
      // A valid reading, the usual case among thousands, makes no message list.
      const found = validateReading(r);
      if (found.length) issues.push(...messages(found, `readings[${i}].`));
    }
  }
  return issues;
}

function batchExtras(readings: unknown, tracker: unknown): string[] {
  const issues = readingIssues(readings);
  if (tracker !== undefined) {
    if (!isPlainObject(tracker)) issues.push("brewTracker must be a JSON object");
    else issues.push(...messages(validateBrewTracker(tracker), "brewTracker."));
  }
  return issues;
}

/** The import document of a set of documents: what `export` writes and `import` reads back. */
export function toImportDocument(set: ImportSet) {
  const section = (kind: Kind) => set.docs.filter((d) => d.kind === kind).map((d) => d.doc);
  return {
    batches: set.batches.map(({ doc, readings, brewTracker }) => ({
      ...doc,
      ...(readings !== undefined ? { readings } : {}),
      ...(brewTracker !== undefined ? { brewTracker } : {}),
    })),
    recipes: section("recipe"),
    fermentables: section("fermentables"),
    hops: section("hops"),
    miscs: section("miscs"),
    yeasts: section("yeasts"),
    ...(set.devices ? { devices: set.devices } : {}),
    ...(set.loggingId ? { loggingId: set.loggingId } : {}),
  };
}

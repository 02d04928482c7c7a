import { badRequest, ERRORS, notFound } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { parseNumeric } from "../lib/numeric.ts";
import type { Store, TimedReading } from "../store/types.ts";

// Every reading is appended one way: as a Reading Object checked here (API document, Reading Object),
// to a batch's rows by the store, which places it by `time` and replaces a reading at the same time.
// A device post's reading passes the same check (src/devices/rules.ts) and the store appends it the
// same way inside the post's transaction.

const NUMBERS = ["sg", "temp", "pressure", "ph", "battery", "rssi", "angle"] as const;
const TEXTS = ["comment", "type", "id"] as const;
/** Every member a Reading Object keeps, in the order its stored text has them (canonical JSON). */
const STORED_ORDER = [...NUMBERS, ...TEXTS, "time"].sort();

/**
 * A Reading Object to append, from its fields: `time` in whole ms (now when absent), the documented
 * numbers (a numeric string counts; null clears, except `temp`, typed as a number) and texts; other
 * members are dropped. The first bad field is 400 `Invalid <field>`. The members come in the order of
 * the stored text, so storing it sorts nothing.
 */
export function readingToAppend(input: Doc, now: number): TimedReading {
  const time = input.time === undefined || input.time === null ? now : parseNumeric(input.time);
  if (time === undefined || !Number.isSafeInteger(time) || time < 0) throw badRequest(ERRORS.invalidField("time"));
  const checked: Doc = { time };
  for (const field of NUMBERS) {
    if (!(field in input)) continue;
    const raw = input[field];
    const n = raw === null ? null : parseNumeric(raw);
    if (n === undefined || (n === null && field === "temp") || (field === "ph" && n !== null && (n < 0 || n > 14))) throw badRequest(ERRORS.invalidField(field));
    checked[field] = n;
  }
  for (const field of TEXTS) {
    if (!(field in input)) continue;
    const raw = input[field];
    if (raw !== null && typeof raw !== "string") throw badRequest(ERRORS.invalidField(field));
    checked[field] = raw;
  }
  const reading = {} as TimedReading;
  for (const field of STORED_ORDER) if (field in checked) reading[field] = checked[field];
  return reading;
}

/** Appends a reading to the account's batch; 404 when there is no such batch. */
export async function appendReading(store: Store, userId: string, batchId: string, input: Doc, now = Date.now()): Promise<TimedReading> {
  const reading = readingToAppend(input, now);
  if (!(await store.appendReading(userId, batchId, reading))) throw notFound();
  return reading;
}

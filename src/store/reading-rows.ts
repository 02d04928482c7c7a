import { sameShapeText, type Doc } from "../lib/json.ts";

// Readings as rows, the same in both stores. A list's order is today's sort of the array: by
// Number(time) || 0 (a reading without a numeric time sits at 0), equal keys in the order they came,
// which `seq` keeps (the position in an imported array). A range looks at readings whose `time` is a
// JSON number (`timed`), so it answers exactly what filtering the whole list would.

export interface ReadingRow {
  /** The sort key: Number(time) || 0. */
  at: number;
  /** Order among equal `at`: the position in the list it came in. */
  seq: number;
  /** 1 when `time` is a number, which a range can select. */
  timed: 0 | 1;
  body: string;
}

export const readingKey = (reading: Doc) => Number(reading.time) || 0;

/**
 * Who sent a reading, as the stores compare it: its `id` (a device's key) as JSON text, `null` when it
 * has none. An append replaces the readings at its time from the same sender only: a retried post does
 * not duplicate, and two devices feeding one batch at one moment both keep theirs (docs/decisions.md).
 */
export const readingSource = (reading: Doc): string => JSON.stringify(reading.id ?? null);

// A reading's canonical text: the readings of a list, as a device sends them, share the order of their
// keys, sorted once for all of them (sameShapeText); canonicalJson serialised an unsorted reading key by
// key, where half an import's time per reading went.
const readingText = sameShapeText();

export function readingRow(reading: Doc, seq: number): ReadingRow {
  return { at: readingKey(reading), seq, timed: typeof reading.time === "number" ? 1 : 0, body: readingText(reading) };
}

/** Rows of a list of readings as it came: their order is the stable sort by time. */
export const readingRows = (readings: Doc[]): ReadingRow[] => readings.map(readingRow);

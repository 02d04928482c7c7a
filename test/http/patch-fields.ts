// The Batch PATCH table of the API document (Endpoints › Batches), written out here independently of
// src/: field, inclusive minimum, inclusive maximum (none for volumes), in the document's order.
export interface PatchField {
  field: string;
  min: number;
  max?: number;
}

export const PATCH_FIELDS: readonly PatchField[] = [
  { field: "measuredMashPh", min: 0, max: 14 },
  { field: "measuredBoilSize", min: 0 },
  { field: "measuredFirstWortGravity", min: 0.1, max: 1.9 },
  { field: "measuredPreBoilGravity", min: 0.1, max: 1.9 },
  { field: "measuredPostBoilGravity", min: 0.1, max: 1.9 },
  { field: "measuredKettleSize", min: 0 },
  { field: "measuredOg", min: 0.1, max: 1.9 },
  { field: "measuredFermenterTopUp", min: 0 },
  { field: "measuredBatchSize", min: 0 },
  { field: "measuredFg", min: 0.1, max: 1.9 },
  { field: "measuredBottlingSize", min: 0 },
  { field: "carbonationTemp", min: -50, max: 100 },
];

export const STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"] as const;

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

/** The neighbouring double towards +Infinity (or -Infinity): "just outside" an inclusive bound. */
export function nextDouble(x: number, up: boolean): number {
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  f64[0] = x;
  i64[0] += (x > 0) === up ? 1n : -1n;
  return f64[0];
}

export const justBelow = (x: number) => nextDouble(x, false);
export const justAbove = (x: number) => nextDouble(x, true);

/** Whether a finite value is within the field's inclusive bounds. */
export const withinBounds = (f: PatchField, v: number) => v >= f.min && (f.max === undefined || v <= f.max);

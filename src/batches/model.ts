import { Type as t } from "@sinclair/typebox";
import { BATCH_STATUSES } from "../resources.ts";

/** A measured value of the Batch PATCH table: its inclusive bounds (no maximum: unbounded above), and how people read it. */
export interface MeasuredBound {
  field: string;
  description: string;
  minimum: number;
  maximum?: number;
  /** The name and unit the batch page shows. */
  label: string;
  unit: string;
}

// The Batch PATCH table of the API document, in its order: the one source of the PATCH schema (and so
// the OpenAPI document) and of the check in service.ts, whose first failing field names the error.
export const MEASURED_BOUNDS: readonly MeasuredBound[] = [
  { field: "measuredMashPh", description: "mash pH", minimum: 0, maximum: 14, label: "Mash pH", unit: "pH" },
  { field: "measuredBoilSize", description: "pre-boil volume, liters", minimum: 0, label: "Pre-boil volume", unit: "L" },
  { field: "measuredFirstWortGravity", description: "first wort gravity, SG", minimum: 0.1, maximum: 1.9, label: "First wort gravity", unit: "SG" },
  { field: "measuredPreBoilGravity", description: "pre-boil gravity, SG", minimum: 0.1, maximum: 1.9, label: "Pre-boil gravity", unit: "SG" },
  { field: "measuredPostBoilGravity", description: "post-boil gravity, SG", minimum: 0.1, maximum: 1.9, label: "Post-boil gravity", unit: "SG" },
  { field: "measuredKettleSize", description: "post-boil volume, liters", minimum: 0, label: "Post-boil volume", unit: "L" },
  { field: "measuredOg", description: "original gravity, SG", minimum: 0.1, maximum: 1.9, label: "Original gravity", unit: "SG" },
  { field: "measuredFermenterTopUp", description: "water added to fermenter, liters", minimum: 0, label: "Fermenter top-up", unit: "L" },
  { field: "measuredBatchSize", description: "fermenter volume, liters", minimum: 0, label: "Fermenter volume", unit: "L" },
  { field: "measuredFg", description: "final gravity, SG", minimum: 0.1, maximum: 1.9, label: "Final gravity", unit: "SG" },
  { field: "measuredBottlingSize", description: "volume at bottling, liters", minimum: 0, label: "Bottling volume", unit: "L" },
  { field: "carbonationTemp", description: "Celsius", minimum: -50, maximum: 100, label: "Carbonation temperature", unit: "°C" },
];

export const BatchStatusSchema = t.Union(BATCH_STATUSES.map((s) => t.Literal(s)), { description: "Batch Status" });

/** The Batch PATCH body as documented: every field optional, since only sent fields change. */
export const BatchPatch = t.Object(
  {
    status: t.Optional(BatchStatusSchema),
    ...Object.fromEntries(
      MEASURED_BOUNDS.map(({ field, description, minimum, maximum }) => [
        field,
        t.Optional(t.Union([t.Number({ minimum, ...(maximum === undefined ? {} : { maximum }) }), t.Null()], { description })),
      ]),
    ),
  },
  { additionalProperties: true },
);

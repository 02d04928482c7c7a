import { Type as t, type TSchema } from "@sinclair/typebox";
import { BATCH_STATUSES } from "../resources.ts";

// The Batch PATCH table of the API document, in its order. Bounds are inclusive. This one schema
// drives PATCH validation (service.ts) and documents the request body.
// Every field is optional: only sent fields change.
const measured = (description: string, minimum: number, maximum?: number) =>
  t.Optional(t.Union([t.Number({ minimum, ...(maximum === undefined ? {} : { maximum }) }), t.Null()], { description }));

export const BatchStatusSchema = t.Union(BATCH_STATUSES.map((s) => t.Literal(s)), { description: "Batch Status" });

export const BatchPatch = t.Object(
  {
    status: t.Optional(BatchStatusSchema),
    measuredMashPh: measured("mash pH", 0, 14),
    measuredBoilSize: measured("pre-boil volume, liters", 0),
    measuredFirstWortGravity: measured("first wort gravity, SG", 0.1, 1.9),
    measuredPreBoilGravity: measured("pre-boil gravity, SG", 0.1, 1.9),
    measuredPostBoilGravity: measured("post-boil gravity, SG", 0.1, 1.9),
    measuredKettleSize: measured("post-boil volume, liters", 0),
    measuredOg: measured("original gravity, SG", 0.1, 1.9),
    measuredFermenterTopUp: measured("water added to fermenter, liters", 0),
    measuredBatchSize: measured("fermenter volume, liters", 0),
    measuredFg: measured("final gravity, SG", 0.1, 1.9),
    measuredBottlingSize: measured("volume at bottling, liters", 0),
    carbonationTemp: measured("Celsius", -50, 100),
  },
  { additionalProperties: true },
);
export type BatchPatch = typeof BatchPatch.static;

export interface NumericBound {
  field: string;
  minimum: number;
  maximum?: number;
}

/** The measured-value fields with their bounds, read from the schema above. */
export const MEASURED_BOUNDS: readonly NumericBound[] = Object.entries(BatchPatch.properties)
  .filter(([field]) => field !== "status")
  .map(([field, schema]) => {
    const num = (schema as TSchema).anyOf[0] as { minimum: number; maximum?: number };
    return { field, minimum: num.minimum, maximum: num.maximum };
  });

// Batch Object and its nested objects (API document: "Batch Object", "Nested objects").
import { Type, type Static } from "@sinclair/typebox";
import { Bool, MetaFields, Num, NumN, OneOf, Opt, PH, Str, StrN } from "./common";
import { BatchFermentable, BatchHop, BatchMisc, BatchYeast } from "./ingredients";
import { BatchRecipe } from "./recipe";

export const BATCH_STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const MEASUREMENT_TYPES = ["Gravity", "Volume", "Temperature", "Weight"] as const;
export const SPECIFIC_MEASUREMENTS = ["OriginalGravity", "FinalGravity", "GravityAddition"] as const;
export const BATCH_EVENT_TYPES = [
  "event-batch-brew-day", "event-batch-brew-day-reminder", "event-batch-bottling-day", "event-batch-ferm-step",
  "event-batch-ferm-completed", "event-batch-dry-hop", "event-batch-general", "event-batch-date",
  "event-batch-yeast-starter-reminder", "event-general", "test",
] as const;

const RATING = { minimum: 1, maximum: 5 } as const;

export const BatchNote = Type.Object({
  hidden: Bool(),
  timestamp: Num(),
  status: Str(),
  note: Str(),
  type: Str(),
});

export const TasteLog = Type.Object({
  timestamp: Num(),
  status: Str(),
  tasteNotes: Str(),
  tasteRating: Num(RATING),
  bitterness: Num(RATING),
  sweetness: Num(RATING),
  alcohol: Num(RATING),
  tropical: Num(RATING),
});

export const BatchMeasurement = Type.Object({
  timestamp: Num(),
  status: Str(),
  text: Str(),
  value: Opt(Type.Unknown()),
  type: Opt(OneOf(MEASUREMENT_TYPES)),
  // The field name is spelled this way by the service.
  spesificMeasurement: Opt(OneOf(SPECIFIC_MEASUREMENTS)),
});

export const Cost = Type.Object({
  fermentables: Num(),
  hops: Num(),
  miscs: Num(),
  yeasts: Num(),
  fermentablesShare: Num(),
  hopsShare: Num(),
  miscsShare: Num(),
  yeastsShare: Num(),
  total: Num(),
  perBottlingLiter: Num(),
});

export const BatchEvent = Type.Object({
  active: Bool(),
  time: Num(),
  endTime: Num(),
  notifyTime: Num(),
  endNotifyTime: Num(),
  confirmed: Num(),
  eventType: Opt(OneOf(BATCH_EVENT_TYPES)),
  title: Str(),
  description: Str(),
  descriptionHTML: Str(),
  eventText: StrN(),
  notify: Bool(),
  notifyEnd: Bool(),
  persistant: Bool(),
  dayEvent: Bool(),
});

export const Batch = Type.Object({
  ...MetaFields,
  name: StrN(),
  batchNo: NumN(),
  status: Opt(OneOf(BATCH_STATUSES)),
  brewer: StrN(),
  hidden: Bool(),
  _parent: StrN(),
  img_url: Str(),
  brewDate: Num(),
  fermentationStartDate: Num(),
  bottlingDate: Num(),
  recipe: Opt(BatchRecipe),
  measuredBatchSize: Num(),
  measuredKettleSize: NumN(),
  measuredBoilSize: NumN(),
  measuredBoilTime: Num(),
  measuredBottlingSize: NumN(),
  measuredBottlingTemp: Num(),
  measuredFermenterTopUp: NumN(),
  measuredOg: NumN(),
  measuredFg: NumN(),
  measuredFirstWortGravity: NumN(),
  measuredPreBoilGravity: NumN(),
  measuredPostBoilGravity: NumN(),
  measuredMashPh: NumN(PH),
  estimatedOg: Num(),
  estimatedFg: Num(),
  estimatedIbu: Num(),
  estimatedColor: Num(),
  estimatedBuGuRatio: NumN(),
  estimatedRbRatio: NumN(),
  estimatedTotalGravity: Num(),
  measuredAttenuation: NumN(),
  measuredEfficiency: NumN(),
  measuredKettleEfficiency: NumN(),
  measuredMashEfficiency: NumN(),
  measuredConversionEfficiency: NumN(),
  measuredAbv: NumN(),
  carbonationTemp: NumN(),
  carbonationType: StrN(),
  carbonationForce: NumN(),
  primingSugarEquiv: NumN(),
  batchFermentables: Opt(Type.Array(BatchFermentable)),
  batchHops: Opt(Type.Array(BatchHop)),
  batchMiscs: Opt(Type.Array(BatchMisc)),
  batchYeasts: Opt(Type.Array(BatchYeast)),
  batchFermentablesLocal: Opt(Type.Array(BatchFermentable)),
  batchHopsLocal: Opt(Type.Array(BatchHop)),
  batchMiscsLocal: Opt(Type.Array(BatchMisc)),
  batchYeastsLocal: Opt(Type.Array(BatchYeast)),
  notes: Opt(Type.Array(BatchNote)),
  batchNotes: Str(),
  tasteLogs: Opt(Type.Array(TasteLog)),
  tasteRating: NumN(RATING),
  tasteNotes: Str(),
  measurements: Opt(Type.Array(BatchMeasurement)),
  info: Str(),
  cost: Opt(Cost),
  events: Opt(Type.Array(BatchEvent)),
  attachmentCount: Num(),
});
export type Batch = Static<typeof Batch>;

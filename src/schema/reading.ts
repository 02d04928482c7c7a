// Reading Object (API document: "Reading Object").
import { Type, type Static } from "@sinclair/typebox";
import { Num, NumN, PH, Str, StrN } from "./common";

// Documented `sg` is a number; real manual readings carry `sg: null`.
export const Reading = Type.Object({
  time: Num(),
  sg: NumN(),
  temp: Num(),
  comment: StrN(),
  type: Str(),
  pressure: NumN(),
  ph: NumN(PH),
  battery: NumN(),
  rssi: NumN(),
  angle: NumN(),
  id: StrN(),
});
export type Reading = Static<typeof Reading>;

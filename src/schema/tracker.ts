// Brew Tracker Object with its stages and steps (API document: "Brew Tracker Object",
// "Tracker Stage Object", "Tracker Step Object"). An inactive tracker is an empty object.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Num, NumN, OneOf, Opt, Str } from "./common";

export const TRACKER_STAGE_TYPES = ["tracker", "checklist"] as const;
export const TRACKER_STEP_TYPES = ["before", "after", "event", "mash", "ramp", "boil", "hopstand"] as const;

// Real steps carry `endTime: null` although the document says number.
export const TrackerStep = Type.Object({
  type: Opt(OneOf(TRACKER_STEP_TYPES)),
  name: Str(),
  description: Str(),
  tooltip: Str(),
  buttonText: Str(),
  pauseBefore: Bool(),
  active: Bool(),
  final: Bool(),
  time: Num(),
  value: Num(),
  duration: Num(),
  priority: Num(),
  startTime: Num(),
  endTime: NumN(),
});

// `position` is the seconds left on the stage's timer in real data.
export const TrackerStage = Type.Object({
  name: Str(),
  type: Opt(OneOf(TRACKER_STAGE_TYPES)),
  start: Num(),
  duration: Num(),
  position: Num(),
  step: Num(),
  paused: Bool(),
  steps: Opt(Type.Array(TrackerStep)),
});

// `name`, `active`, `alarm`, `notify`, `hidden`, `startTime` are not in the document but are
// on every real tracker.
export const BrewTracker = Type.Object({
  _id: Str(),
  _rev: Str(),
  enabled: Bool(),
  completed: Bool(),
  stage: Num(),
  stages: Opt(Type.Array(TrackerStage)),
  name: Str(),
  active: Bool(),
  alarm: Bool(),
  notify: Bool(),
  hidden: Bool(),
  startTime: Num(),
});
export type BrewTracker = Static<typeof BrewTracker>;

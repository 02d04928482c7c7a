// Brew trackers shaped like the hosted service's: stages of timed steps, where
// a step's `time` is the seconds left on the stage timer when it fires and a
// stage's `position` is the seconds left when the tracker was last saved.

type Obj = Record<string, unknown>;

export type TrackerState =
  | { kind: "completed"; startTime: number }
  /** Mash running: started at `stageStart`, last saved at `savedAt`. */
  | { kind: "running"; startTime: number; stageStart: number; savedAt: number };

function additions(label: string, seconds: number, items: Obj[]): Obj {
  const minutes = Math.round(seconds / 60);
  const lines = items.map((item) => `<i><b>${item.amount} ${unitOf(item)}</b> ${item.name}</i>`);
  return {
    type: "event", tooltip: `${minutes} min ${label} additions`,
    description: `<b>${minutes} min ${label} additions:</b></br> ${lines.join(" </br>")}`,
    pauseBefore: label === "mash", time: seconds, priority: label === "mash" ? 9 : 0,
  };
}

function unitOf(item: Obj): string {
  if (typeof item.unit === "string") return item.unit;
  return "alpha" in item ? "g" : "kg";
}

function event(name: string, description: string, time: number, priority: number, pauseBefore = true): Obj {
  return { type: "event", name, description, pauseBefore, time, duration: 0, priority, value: 0 };
}

/** Steps sorted by when they fire; equal times keep their written order. */
function byTimeLeft(steps: Obj[]): Obj[] {
  return steps
    .map((step, index) => ({ step, index }))
    .sort((a, b) => (b.step.time as number) - (a.step.time as number) || a.index - b.index)
    .map((entry) => entry.step);
}

function mashStage(recipe: Obj): Obj {
  const data = recipe.data as Obj;
  const steps = (recipe.mash as Obj).steps as Obj[];
  const total = steps.reduce((sum, s) => sum + (s.stepTime as number) * 60, 0);
  const first = steps[0];
  const mashItems = [...(recipe.fermentables as Obj[]), ...(recipe.miscs as Obj[]).filter((m) => m.use === "Mash")];
  const out: Obj[] = [
    { type: "mash", name: "Start", description: "Start Mash Tracker", pauseBefore: false, time: total, duration: 0, priority: 10 },
    {
      type: "event", name: "Mash", value: first.stepTemp, tooltip: `Heat to ${data.strikeTemp} °C`,
      description: `Heat <b>${data.mashWaterAmount} L</b> mash water to ${data.strikeTemp} °C`,
      pauseBefore: true, time: total, duration: 0, priority: 10,
    },
    additions("mash", total, mashItems),
  ];
  let left = total;
  steps.forEach((s, index) => {
    const temp = s.stepTemp as number;
    const seconds = (s.stepTime as number) * 60;
    if (index > 0) {
      out.push({ type: "ramp", name: s.name, value: temp, tooltip: `Heat to ${temp} °C`, description: `Heat to ${temp} °C`, pauseBefore: true, time: left, duration: 0 });
    }
    out.push({ type: "mash", name: s.name, value: temp, tooltip: `${s.stepTime} min @ ${temp} °C`, description: `${s.name} - ${s.stepTime} min @ ${temp} °C`, time: left, duration: seconds });
    left -= seconds;
  });
  out.push(event("Sparge", `<b>15 min</b>: Prepare <b>${data.spargeWaterAmount} L</b> sparge water @ 76 °C`, 900, 8, false));
  out.push(event("Mash", "Mashing Complete", 0, 10));
  out.push(event("Sparge", `Sparge with <b>${data.spargeWaterAmount} L</b> water  @ 76 °C to reach pre-boil volume of <b>${recipe.boilSize} L</b>`, 0, 10));
  out.push(event("Sparge", "Sparge Complete", 0, 10));
  return { name: "Mash", type: "tracker", duration: total, steps: byTimeLeft(out) };
}

function grouped(label: string, items: Obj[]): Obj[] {
  const times = [...new Set(items.map((item) => (item.time as number) * 60))].sort((a, b) => b - a);
  return times.map((seconds) => additions(label, seconds, items.filter((item) => (item.time as number) * 60 === seconds)));
}

function boilStage(recipe: Obj, final: boolean): Obj {
  const duration = (recipe.boilTime as number) * 60;
  const items = [
    ...(recipe.hops as Obj[]).filter((h) => h.use === "Boil"),
    ...(recipe.miscs as Obj[]).filter((m) => m.use === "Boil"),
  ];
  const end = { ...event("Boil", "End of Boil", 0, 0), ...(final ? { final: true } : {}) };
  return {
    name: "Boil", type: "tracker", duration,
    steps: [
      { type: "boil", name: "Start", description: "Start Boil Tracker", pauseBefore: false, time: duration, duration: 0, priority: 10 },
      ...grouped("boil", items),
      end,
    ],
  };
}

function hopStandStage(recipe: Obj, hops: Obj[]): Obj {
  const duration = Math.max(...hops.map((h) => h.time as number)) * 60;
  const temp = hops[0].temp;
  return {
    name: "Hop Stand", type: "tracker", duration,
    steps: [
      { ...event("Hop Stand", `Start Hop Stand @ ${temp} °C`, duration, 10), type: "hopstand" },
      ...grouped("hop stand", hops),
      { ...event("Hop Stand", "End of Hop Stand", 0, 10), final: true },
    ],
  };
}

function stagesFor(recipe: Obj): Obj[] {
  const standHops = (recipe.hops as Obj[]).filter((h) => h.use === "Aroma");
  const stages = [mashStage(recipe), boilStage(recipe, standHops.length === 0)];
  if (standHops.length > 0) stages.push(hopStandStage(recipe, standHops));
  return stages;
}

/** Every stage ran to its end, one after the other, with short breaks between. */
function finish(stages: Obj[], startTime: number): Obj[] {
  let clock = startTime + 10 * 60_000;
  return stages.map((stage) => {
    const start = clock;
    const duration = stage.duration as number;
    clock += duration * 1000 + 25 * 60_000;
    const steps = (stage.steps as Obj[]).map((step) => {
      const begun = start + (duration - (step.time as number)) * 1000;
      return { ...step, startTime: begun, endTime: begun + ((step.duration as number | undefined) ?? 0) * 1000 };
    });
    return { ...stage, start, position: 0, paused: true, step: steps.length - 1, steps };
  });
}

/** The first stage is running; the saved position is the time left at `savedAt`. */
function run(stages: Obj[], stageStart: number, savedAt: number): Obj[] {
  return stages.map((stage, index) => {
    const duration = stage.duration as number;
    if (index > 0) return { ...stage, position: duration, paused: true, step: 0 };
    const elapsed = Math.round((savedAt - stageStart) / 1000);
    const steps = stage.steps as Obj[];
    // The current step is the last one whose firing time has passed.
    let current = 0;
    steps.forEach((step, i) => { if (duration - (step.time as number) <= elapsed) current = i; });
    const withTimes = steps.map((step, i) =>
      i <= current && (step.priority === 9 || (step.type === "mash" && (step.duration as number) > 0))
        ? { ...step, startTime: stageStart + (duration - (step.time as number)) * 1000, endTime: null }
        : step);
    return { ...stage, start: stageStart, position: duration - elapsed, paused: false, step: current, steps: withTimes };
  });
}

export function buildTracker(_id: string, batchNo: number, recipe: Obj, state: TrackerState, rev: string): Obj {
  const stages = stagesFor(recipe);
  const completed = state.kind === "completed";
  return {
    _id, _rev: rev, name: `Batch #${batchNo}`,
    enabled: true, active: !completed, completed, alarm: true, notify: true, hidden: false,
    startTime: state.startTime,
    stage: completed ? stages.length - 1 : 0,
    stages: completed ? finish(stages, state.startTime) : run(stages, state.stageStart, state.savedAt),
  };
}

import type { Kind } from "../resources.ts";
import { KIND_NAMES, LIST_ORDER } from "./plan.ts";
import type { RunState, Tally } from "./state.ts";

// What a pull shows: a progress line on a terminal (or a plain line per step), and the report at the end.

/** `75 s`, `4 min`, `1 h 20 min`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

export interface ProgressFigures {
  run: RunState;
  callsLeft: number | undefined;
  finishMs: number;
}

/** `batches 6/6 · recipes 50/? · … · readings 2/6 · 31 calls left this hour · about 12 s to finish` */
export function progressLine({ run, callsLeft, finishMs }: ProgressFigures): string {
  const kinds = LIST_ORDER.filter((k) => !run.listing[k]?.denied).map((k) => {
    const l = run.listing[k];
    const done = l?.seen.length ?? 0;
    return `${KIND_NAMES[k]} ${done}/${l?.done ? done : "?"}`;
  });
  const childrenTotal = run.childrenDone + run.pending.length;
  const batchesListed = run.listing.batch?.done === true;
  kinds.push(`readings ${run.childrenDone}/${batchesListed ? childrenTotal : "?"}`);
  const left = callsLeft === undefined ? "calls left this hour unknown" : `${callsLeft} calls left this hour`;
  return `${kinds.join(" · ")} · ${left} · about ${duration(finishMs)} to finish`;
}

const tallyText = (t: Tally) =>
  `${t.new} new, ${t.updated} updated, ${t.unchanged} unchanged` + (t.kept ? `, ${t.kept} kept as changed here` : "") + (t.removed ? `, ${t.removed} removed` : "");

export interface Summary {
  localUser: string;
  from: string;
  remoteUser: string;
  run: RunState;
  /** Calls of this process alone (a resumed run made others before). */
  callsThisProcess: number;
  elapsedMs: number;
  resumed: boolean;
}

/** The report printed when a pull finishes. */
export function reportLines(s: Summary): string[] {
  const { run } = s;
  const lines = [
    `pulled user ${s.remoteUser} at ${s.from} into ${s.localUser} in ${duration(s.elapsedMs)} with ${s.callsThisProcess} calls` +
      (s.resumed ? ` (${run.calls} over the whole run, begun ${new Date(run.startedAt).toISOString()})` : ""),
  ];
  for (const kind of LIST_ORDER as Kind[]) {
    const l = run.listing[kind];
    const t = run.tally[kind];
    const name = KIND_NAMES[kind].padEnd(13);
    if (l?.denied) lines.push(`  ${name}not read (see skipped)`);
    else lines.push(`  ${name}${String(l?.seen.length ?? 0).padStart(5)}  ${t ? tallyText(t) : "none"}`);
  }
  lines.push(`  ${"readings".padEnd(13)}${String(run.childrenDone).padStart(5)}  batches read, ${run.readings.added} new readings in ${run.readings.batchesChanged} of them`);
  lines.push(`  ${"trackers".padEnd(13)}${String(run.childrenDone).padStart(5)}  batches read, ${run.trackers.changed} trackers changed, ${run.trackers.none} batches without one`);
  if (run.skipped.length === 0) lines.push("skipped: none");
  else {
    lines.push(`skipped: ${run.skipped.length}`);
    for (const { what, why } of run.skipped) lines.push(`  ${what}: ${why}`);
  }
  return lines;
}

/** Where progress goes: one line redrawn in place on a terminal, else a plain line per step. */
export class Progress {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly out: { write(text: string): unknown; columns?: number },
    private readonly terminal: boolean,
  ) {}

  /** A step: logged as a line when not on a terminal. */
  step(line: string): void {
    if (!this.terminal) this.out.write(`${line}\n`);
  }

  /** Something to say in either case (a wait, a note). */
  note(line: string): void {
    this.clear();
    this.out.write(`${line}\n`);
  }

  /** Redraws the progress line, at most ten times a second unless forced. */
  show(line: string, force = false): void {
    if (!this.terminal) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    // A line longer than the terminal wraps, and `\r` would then redraw only its last part.
    const width = this.out.columns;
    this.out.write(`\r\x1b[K${width && line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
    this.drawn = true;
  }

  clear(): void {
    if (this.terminal && this.drawn) this.out.write("\r\x1b[K");
    this.drawn = false;
  }
}

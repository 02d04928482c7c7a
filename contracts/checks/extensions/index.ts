// [Beyond the hosted API] Additions some implementations make beyond the API document, checked only
// with CONTRACTS_EXTENSIONS=1 so a server that offers none is never judged on them. The documented
// areas never import from this folder.
//
// One file per addition joins ADDITIONS below. An addition's checks name the addition in brackets
// instead of a part of the document, and find out first whether the target offers it at all: a
// target without it gets skips that say so, never failures. The checks assert what the additions'
// own documentation states; where it leaves a detail to the server (a refusal's exact status or
// text), the check's name says that detail is the server's choice and it is not asserted.
import type { Area, Check } from "../../engine.ts";
import { BATCH_CREATE_CHECKS } from "./batch-create.ts";
import { DEVICE_CHECKS } from "./devices.ts";
import { deleteMade } from "./made.ts";
import { READING_WRITE_CHECKS } from "./readings.ts";
import { SINCE_UNTIL_CHECKS } from "./since-until.ts";
import { STATUS_IN_CHECKS } from "./status-in.ts";
import { WEBHOOK_CHECKS } from "./webhooks.ts";

export interface Addition { name: string; checks: Check[] }

/** The additions the kit knows how to check. */
export const ADDITIONS: Addition[] = [
  { name: "addition: POST /v2/batches", checks: BATCH_CREATE_CHECKS },
  { name: "addition: POST and DELETE of readings", checks: READING_WRITE_CHECKS },
  { name: "addition: readings since/until", checks: SINCE_UNTIL_CHECKS },
  { name: "addition: status_in", checks: STATUS_IN_CHECKS },
  { name: "addition: devices", checks: DEVICE_CHECKS },
  { name: "addition: webhooks", checks: WEBHOOK_CHECKS },
];

export function extensionsArea(): Area {
  const checks = ADDITIONS.flatMap((a) => a.checks.map((c) => ({ ...c, name: `${c.name} [${a.name}]` })));
  return { name: "extensions", checks, teardown: deleteMade };
}

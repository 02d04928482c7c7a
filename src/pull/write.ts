import { ImportError, parseImport } from "../import.ts";
import type { Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import type { ImportSet, Store } from "../store/types.ts";
import { KIND_NAMES } from "./plan.ts";

// Pulled documents go in by the rules of `import` (README, "Import"): checked by the same schemas, every
// field kept as it came, written with importAll.

export interface BatchChildren {
  readings?: Doc[];
  brewTracker?: Doc;
}

/** The import set of one document (a batch with its readings and tracker), or why import refuses it. */
export function importable(kind: Kind, doc: Doc, children: BatchChildren = {}): ImportSet | string {
  const item = kind === "batch" ? { ...doc, ...children } : doc;
  try {
    // The import document's sections are named as the report names kinds.
    return parseImport({ [KIND_NAMES[kind]]: [item] });
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    // parseImport names the element (`recipes[0] (_id …): `); the report names it already.
    return e.message.replace(/^\w+\[0\](?: \(_id [^)]*\))?: /, "");
  }
}

/** Several import sets as one, for one transaction. */
export function joinSets(sets: ImportSet[]): ImportSet {
  return { batches: sets.flatMap((s) => s.batches), docs: sets.flatMap((s) => s.docs) };
}

const parsed = <T>(text: string | undefined): T | undefined => (text === undefined ? undefined : (JSON.parse(text) as T));

/** What is stored here of a batch besides the document: its readings (text and array) and tracker. */
export async function localChildren(store: Store, userId: string, batchId: string) {
  const readingsText = await store.readings(userId, batchId);
  const trackerText = await store.brewTracker(userId, batchId);
  return {
    readingsText,
    readings: parsed<Doc[]>(readingsText) ?? [],
    trackerText,
    tracker: parsed<Doc>(trackerText),
  };
}

/** Every `_id` of a kind stored for the account, a page of 500 at a time. */
export async function localIds(store: Store, userId: string, kind: Kind): Promise<string[]> {
  const ids: string[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await store.list(userId, kind, { limit: 500, startAfter, orderBy: "_id", desc: false, fields: "summary" });
    if (page === "unknown-cursor") throw new Error(`listing ${kind} here: the cursor ${startAfter} was refused`);
    for (const text of page) ids.push(String((JSON.parse(text) as Doc)._id));
    if (page.length < 500) return ids;
    startAfter = ids[ids.length - 1];
  }
}

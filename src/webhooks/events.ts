import type { Doc } from "../lib/json.ts";
import type { Scope } from "../lib/scopes.ts";
import type { Kind } from "../resources.ts";
import type { OutboxEvent, StoreChange } from "../store/types.ts";

// The events of a change (README, "Webhooks"). This is the store's outbox hook: it runs inside the
// write's transaction, so it only gathers what each event's payload holds, for the types wanted; the
// payload's text and the event's id are made later (store/outbox.ts, `messageOf`).

export const EVENT_TYPES = [
  "batch.created",
  "batch.updated",
  "batch.deleted",
  "reading.created",
  "recipe.created",
  "recipe.updated",
  "recipe.deleted",
  "inventory.created",
  "inventory.updated",
  "inventory.deleted",
  "inventory.negative",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (value: unknown): value is EventType => (EVENT_TYPES as readonly unknown[]).includes(value);

/**
 * The event an owner sends to try a receiver (POST /v2/webhooks/{id}/test): to that subscription
 * alone, whatever it wants; no one subscribes to it.
 */
export const TEST_EVENT = "webhook.test";

export function testEvent(userId: string, webhookId: string, at = Date.now()): OutboxEvent {
  return { type: TEST_EVENT, resource: `webhook/${webhookId}`, createdAt: at, account: userId, data: { kind: "webhook", id: webhookId } };
}

/** The scope a key needs to subscribe to an event: the one that reads its resource. */
export function scopeOfEvent(type: EventType): Scope {
  if (type.startsWith("recipe.")) return "recipes.read";
  if (type.startsWith("inventory.")) return "inventory.read";
  return "batches.read";
}

const familyOf = (kind: Kind): "batch" | "recipe" | "inventory" => (kind === "batch" || kind === "recipe" ? kind : "inventory");

/**
 * The top-level members an update changed, with their new values (null: removed), in the order of the
 * later document; server-managed bookkeeping (`_rev`, `_timestamp`, …) is left out.
 */
export function changedMembers(before: Doc, after: Doc): Doc {
  const out: Doc = {};
  for (const k of Object.keys(after)) if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = after[k];
  for (const k of Object.keys(before)) if (!(k in after)) out[k] = null;
  return withoutBookkeeping(out);
}

function withoutBookkeeping(members: Doc): Doc {
  const out: Doc = {};
  for (const k in members) if (k.charCodeAt(0) !== 95 /* _ */ && Object.hasOwn(members, k)) out[k] = members[k];
  return out;
}

const stockOf = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const v = (JSON.parse(text) as Doc).inventory;
  return typeof v === "number" ? v : undefined;
};

/** The events of one change among the types wanted (Store.setOutbox). */
export function eventsOf(userId: string, change: StoreChange, wanted: ReadonlySet<string>, at = Date.now()): OutboxEvent[] {
  const events: OutboxEvent[] = [];
  const add = (type: EventType, resource: string, data: Record<string, unknown>, document?: string) => {
    if (wanted.has(type)) events.push(document === undefined ? { type, resource, createdAt: at, account: userId, data } : { type, resource, createdAt: at, account: userId, data, document });
  };
  if (change.kind === "reading") {
    const { batchId, device, reading } = change;
    const resource = batchId !== null ? `batch/${batchId}` : `device/${device?.type}/${device?.name}`;
    add("reading.created", resource, { kind: "reading", batchId, ...(device ? { device: { type: device.type, name: device.name } } : {}), reading });
    return events;
  }
  // A store hands over only writes that changed the document (StoreChange): the two texts are not
  // compared here, which for a batch meant reading 15 KB twice over in every PATCH.
  const { kind, id, before, after } = change;
  const family = familyOf(kind);
  const resource = `${kind}/${id}`;
  if (after === undefined) {
    add(`${family}.deleted`, resource, { kind, id }, before);
    return events;
  }
  if (before === undefined) add(`${family}.created`, resource, { kind, id }, after);
  else if (wanted.has(`${family}.updated`)) {
    // The members set and the list entry, not the whole document: an event row is written with every
    // write, and a batch's document runs to tens of kilobytes (docs/decisions.md, Webhooks).
    const changes = change.set ? withoutBookkeeping(change.set) : changedMembers(JSON.parse(before) as Doc, JSON.parse(after) as Doc);
    add(`${family}.updated`, resource, { kind, id, changed: Object.keys(changes), changes }, change.summary ?? after);
  }
  // Stock crossing zero: `inventory_negative=true` lists the item now and did not before.
  if (family === "inventory" && wanted.has("inventory.negative")) {
    const set = change.set?.inventory;
    const now = typeof set === "number" ? set : stockOf(after);
    const was = stockOf(before);
    if (now !== undefined && now < 0 && !(was !== undefined && was < 0)) add("inventory.negative", resource, { kind, id, inventory: now }, after);
  }
  return events;
}

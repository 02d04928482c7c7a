import type { Database } from "bun:sqlite";
import type { Kind } from "../resources.ts";
import { orderValueOf } from "./sqlite-schema.ts";
import type { StatementCache } from "./sqlite-statements.ts";

// Orders by a field without a column of its own (any `order_by` but `_id`, brewDate, name, batchNo
// and stock), made on first use per account, kind and path: the field's sort key of each record in
// `order_keys`, indexed by (key, id), so a page seeks there as an indexed order does, at any depth.
// Until an order's keys are complete its pages sort, as before. Triggers on `records` keep the keys
// of every later write (sqlite-schema.ts), so no write path of the store knows about them.
// docs/performance.md, "Order by any field", says why this and not an index per field.

/** Orders made per account and kind; a further one sorts each page. Each costs every write of the kind a key. */
export const MAX_ORDER_PATHS = 8;
/** Records keyed per transaction while an order is made: short enough that writers barely wait. */
const CHUNK = 500;

const STATE = "SELECT done FROM order_paths WHERE user_id = ? AND kind = ? AND path = ?";
const COUNT = "SELECT count(*) FROM order_paths WHERE user_id = ? AND kind = ?";
const REGISTER = "INSERT OR IGNORE INTO order_paths (user_id, kind, path) VALUES (?, ?, ?)";
const PROGRESS = "SELECT made_through, done FROM order_paths WHERE user_id = ? AND kind = ? AND path = ?";
const BOUND = "SELECT id FROM records WHERE user_id = ? AND kind = ? AND id > ? ORDER BY id LIMIT 1 OFFSET ?";
const COPY = (bounded: boolean) => `INSERT OR REPLACE INTO order_keys (user_id, kind, path, id, sort_value)
  SELECT user_id, kind, ?3, id, ${orderValueOf("body", "?3")} FROM records
  WHERE user_id = ?1 AND kind = ?2 AND id > ?4${bounded ? " AND id <= ?5" : ""}`;
const ADVANCE = "UPDATE order_paths SET made_through = ?, done = ? WHERE user_id = ? AND kind = ? AND path = ?";

export class SqliteOrderKeys {
  // Orders this process is making, by "user NUL kind NUL path".
  private readonly making = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly step: (userId: string, kind: Kind, path: string) => boolean;

  constructor(
    db: Database,
    private readonly statements: StatementCache,
  ) {
    const step = db.transaction(this.stepTx.bind(this));
    const register = db.transaction(this.registerTx.bind(this));
    this.step = (userId, kind, path) => step.immediate(userId, kind, path);
    this.register = (userId, kind, path) => register.immediate(userId, kind, path);
  }

  /**
   * Whether the order by `path` (a JSON path, `$.field`) has its keys complete for this account and
   * kind. When not, they are started (or taken up again, after a process that made them stopped),
   * in steps between requests, unless the account already has MAX_ORDER_PATHS orders of this kind.
   */
  ready(userId: string, kind: Kind, path: string): boolean {
    const row = this.statements.get(STATE).values(userId, kind, path) as Array<[number]>;
    if (row.length && row[0][0] === 1) return true;
    if (row.length || (this.room(userId, kind) && this.register(userId, kind, path))) this.start(userId, kind, path);
    return false;
  }

  /** Makes an order's keys at once, whole (the benchmark and tests). False when the bound refuses it. */
  make(userId: string, kind: Kind, path: string): boolean {
    if (!this.ready(userId, kind, path)) {
      if (!this.making.has(keyOf(userId, kind, path))) return false;
      while (!this.step(userId, kind, path));
      this.forget(keyOf(userId, kind, path));
    }
    return true;
  }

  /** Stops making keys (the store closes); what was made stays, and is taken up again later. */
  stop(): void {
    for (const key of [...this.making.keys()]) this.forget(key);
  }

  private readonly register: (userId: string, kind: Kind, path: string) => boolean;

  // Read first without the write lock, so a page past the bound costs no write transaction.
  private room(userId: string, kind: Kind): boolean {
    const [[count]] = this.statements.get(COUNT).values(userId, kind) as Array<[number]>;
    return count < MAX_ORDER_PATHS;
  }

  private registerTx(userId: string, kind: Kind, path: string): boolean {
    if (!this.room(userId, kind)) return false;
    this.statements.get(REGISTER).run(userId, kind, path);
    return true;
  }

  private start(userId: string, kind: Kind, path: string): void {
    const key = keyOf(userId, kind, path);
    if (this.making.has(key)) return;
    const next = () => {
      try {
        if (this.step(userId, kind, path)) return this.forget(key);
      } catch {
        // Busy or closed: a later page asks again and this process, or another, goes on from there.
        return this.forget(key);
      }
      this.making.set(key, setTimeout(next, 0));
    };
    this.making.set(key, setTimeout(next, 0));
  }

  private forget(key: string): void {
    clearTimeout(this.making.get(key));
    this.making.delete(key);
  }

  /** Keys the next CHUNK records in id order; true once every record has its key. */
  private stepTx(userId: string, kind: Kind, path: string): boolean {
    const progress = this.statements.get(PROGRESS).values(userId, kind, path) as Array<[string, number]>;
    if (!progress.length || progress[0][1] === 1) return true;
    const after = progress[0][0];
    const bound = this.statements.get(BOUND).values(userId, kind, after, CHUNK - 1) as Array<[string]>;
    if (bound.length) this.statements.get(COPY(true)).run(userId, kind, path, after, bound[0][0]);
    else this.statements.get(COPY(false)).run(userId, kind, path, after);
    this.statements.get(ADVANCE).run(bound.length ? bound[0][0] : after, bound.length ? 0 : 1, userId, kind, path);
    return bound.length === 0;
  }
}

const keyOf = (userId: string, kind: Kind, path: string) => `${userId}\0${kind}\0${path}`;

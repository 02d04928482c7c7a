import type { Database, Statement } from "bun:sqlite";
import type { Kind } from "../resources.ts";
import { listPlan } from "./sqlite-list.ts";
import { DERIVED } from "./sqlite-records.ts";
import type { ListQuery } from "./types.ts";

/** More distinct statements than the store can build; reaching it means something builds SQL it should bind. */
const MAX_STATEMENTS = 2000;

/** A shared list query's prepared page: the statement, and the values bound after the user id. */
export interface SharedList {
  statement: Statement;
  rest: Array<string | number>;
}

/**
 * Prepared statements by their SQL text. bun:sqlite's own query cache keeps 20 entries and reorders
 * them on every hit; this one keeps every shape the store builds (a bounded set: lists, partial
 * updates), prepared once (docs/performance.md, "Storage").
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  /** Statements prepared and kept. */
  get size(): number {
    return this.statements.size;
  }

  get(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (stmt === undefined) {
      if (this.statements.size >= MAX_STATEMENTS) this.clear();
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  // The UPDATE of a record's body and the derived columns in `changed` (a bit per DERIVED column), by mask.
  private readonly updates: Statement[] = [];

  update(changed: number): Statement {
    let stmt = this.updates[changed];
    if (stmt === undefined) {
      const set = ["body = ?", ...DERIVED.filter((_, i) => changed & (1 << i)).map((c) => `${c} = ?`)];
      this.updates[changed] = stmt = this.get(`UPDATE records SET ${set.join(", ")} WHERE rowid = ?`);
    }
    return stmt;
  }

  // A list asked for with no parameters (most are) carries its version's frozen defaults
  // (src/http/list-params.ts), one object for every such request: its page's statement and the values
  // after the user id are found once per kind, not built as SQL text and looked up by it each time.
  private sharedLists = new WeakMap<ListQuery, Map<string, SharedList | null>>();

  sharedList(kind: Kind, query: ListQuery, bytes: boolean): SharedList | null {
    if (!Object.isFrozen(query)) return null;
    let byKind = this.sharedLists.get(query);
    if (byKind === undefined) this.sharedLists.set(query, (byKind = new Map()));
    const key = bytes ? `${kind} bytes` : kind;
    let shared = byKind.get(key);
    if (shared === undefined) {
      const plan = listPlan(kind, query, bytes);
      byKind.set(key, (shared = plan ? { statement: this.get(plan.sql), rest: plan.rest } : null));
    }
    return shared;
  }

  /** Finalizes every statement, so closing the database releases the file at once. */
  clear(): void {
    this.sharedLists = new WeakMap();
    this.updates.length = 0;
    for (const stmt of this.statements.values()) stmt.finalize();
    this.statements.clear();
  }
}

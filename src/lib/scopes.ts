// The nine scopes of the API document (Authentication). A delete scope is separate from write.
export const SCOPES = [
  "recipes.read",
  "recipes.write",
  "recipes.delete",
  "batches.read",
  "batches.write",
  "batches.delete",
  "inventory.read",
  "inventory.write",
  "inventory.delete",
] as const;

export type Scope = (typeof SCOPES)[number];

/** The three read scopes: what a signed-in owner may see, and any one of which manages webhooks. */
export const READ_SCOPES: readonly Scope[] = SCOPES.filter((s) => s.endsWith(".read"));

/** What a route needs of a key: one scope, or any one of several (an account-wide addition such as webhooks). */
export type ScopeNeed = Scope | readonly Scope[];

/** True when scopes a key holds meet the need. */
export function meets(held: readonly string[], need: ScopeNeed): boolean {
  return typeof need === "string" ? held.includes(need) : need.some((s) => held.includes(s));
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Version 1 has five scopes (API document, Versioning): read recipes, read batches, edit batches, read
 * inventory, edit inventory. They are stored under the v2 names they grant.
 */
export const V1_SCOPES: readonly Scope[] = ["recipes.read", "batches.read", "batches.write", "inventory.read", "inventory.write"];

/** The scopes a key of an API version can hold. */
export const scopesOf = (apiVersion: 1 | 2): readonly Scope[] => (apiVersion === 1 ? V1_SCOPES : SCOPES);

/**
 * Parses "all" or a comma list of scope names for a key of the API version; returns the names that
 * are unknown (or not available in that version) when there are any.
 */
export function parseScopeList(input: string, apiVersion: 1 | 2 = 2): { scopes: Scope[] } | { unknown: string[] } {
  const available = scopesOf(apiVersion);
  if (input.trim() === "all") return { scopes: [...available] };
  const names = input.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(available as readonly string[]).includes(n));
  if (unknown.length || names.length === 0) return { unknown: unknown.length ? unknown : [input] };
  return { scopes: available.filter((s) => names.includes(s)) };
}

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

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Parses "all" or a comma list of scope names; returns the unknown names when there are any. */
export function parseScopeList(input: string): { scopes: Scope[] } | { unknown: string[] } {
  if (input.trim() === "all") return { scopes: [...SCOPES] };
  const names = input.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isScope(n));
  if (unknown.length || names.length === 0) return { unknown: unknown.length ? unknown : [input] };
  return { scopes: SCOPES.filter((s) => names.includes(s)) };
}

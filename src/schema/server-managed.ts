// Fields the service sets itself and ignores in request bodies (API document: "Server-managed
// recipe fields", "Inventory create rules").

/** Named server-managed recipe fields; every root field starting with "_" is server-managed too. */
export const RECIPE_SERVER_MANAGED: readonly string[] = Object.freeze(["createdAt", "updatedAt", "data"]);
/** Named server-managed inventory fields; every root field starting with "_" is server-managed too. */
export const INVENTORY_SERVER_MANAGED: readonly string[] = Object.freeze(["createdAt", "updatedAt"]);

/** A new object without every root key starting with "_" and without the named keys. */
export function stripServerManaged(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const drop = new Set(names);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith("_") || drop.has(key)) continue;
    out[key] = value;
  }
  return out;
}

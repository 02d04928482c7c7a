// The four inventory collections of the API document ("Inventory"), in alphabetical order
// so iteration over the catalog is deterministic.
export type Collection = "fermentables" | "hops" | "miscs" | "yeasts";

export const COLLECTIONS: readonly Collection[] = Object.freeze([
  "fermentables",
  "hops",
  "miscs",
  "yeasts",
] as const);

export function isCollection(value: string): value is Collection {
  return (COLLECTIONS as readonly string[]).includes(value);
}

import type { Scope } from "./scopes.ts";

// Requests no route matched. One-record operations with an empty id segment answer `Missing ID`
// (API document, Errors) after authentication; everything else is an unknown route.
const ONE_RECORD: Array<[RegExp, Record<string, Scope>]> = [
  [/^\/v2\/batches\/?$/, { PATCH: "batches.write", DELETE: "batches.delete" }],
  [/^\/v2\/batches\/\/(?:readings(?:\/last)?|brewtracker)\/?$/, { GET: "batches.read" }],
  [/^\/v2\/recipes\/?$/, { PATCH: "recipes.write", DELETE: "recipes.delete" }],
  [/^\/v2\/inventory\/(?:fermentables|hops|miscs|yeasts)\/?$/, { PATCH: "inventory.write", DELETE: "inventory.delete" }],
];

/** The scope a request would need if it is a one-record operation missing its id, else undefined. */
export function missingIdScope(method: string, path: string): Scope | undefined {
  for (const [pattern, scopes] of ONE_RECORD) {
    if (pattern.test(path)) return scopes[method];
  }
  return undefined;
}

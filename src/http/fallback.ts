import type { Scope } from "../lib/scopes.ts";

// Requests no route matched. One-record operations with an empty id segment answer `Missing ID`
// (API document, Errors) after authentication; everything else is an unknown route.
const V2: Array<[RegExp, Record<string, Scope>]> = [
  [/^\/v2\/batches\/*$/, { PATCH: "batches.write", DELETE: "batches.delete" }],
  [/^\/v2\/batches\/\/+(?:readings(?:\/last)?|brewtracker)\/*$/, { GET: "batches.read" }],
  [/^\/v2\/recipes\/*$/, { PATCH: "recipes.write", DELETE: "recipes.delete" }],
  [/^\/v2\/inventory\/(?:fermentables|hops|miscs|yeasts)\/*$/, { PATCH: "inventory.write", DELETE: "inventory.delete" }],
];
// Version 1 has no deletes and no recipe updates: those stay unknown routes.
const V1: Array<[RegExp, Record<string, Scope>]> = [
  [/^\/v1\/batches\/*$/, { PATCH: "batches.write" }],
  [/^\/v1\/batches\/\/+(?:readings(?:\/last)?|brewtracker)\/*$/, { GET: "batches.read" }],
  [/^\/v1\/inventory\/(?:fermentables|hops|miscs|yeasts)\/*$/, { PATCH: "inventory.write" }],
];

/** The scope and API version a request would need if it is a one-record operation missing its id. */
export function missingIdScope(method: string, path: string): { scope: Scope; version: 1 | 2 } | undefined {
  for (const [table, version] of [[V2, 2], [V1, 1]] as const) {
    for (const [pattern, scopes] of table) {
      if (pattern.test(path)) return scopes[method] ? { scope: scopes[method], version } : undefined;
    }
  }
  return undefined;
}

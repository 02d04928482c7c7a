import type { ScopeNeed } from "../lib/scopes.ts";
import type { Route } from "./endpoint.ts";

// Requests no route matched. A one-record operation with an empty id segment answers `Missing ID`
// (API document, Errors) after authentication; everything else is an unknown route. Which paths and
// methods those are follows from the route table: every route with an `:id`, with that segment empty,
// for the methods its list path does not serve itself (`GET /v2/batches/` is the list).

export interface MissingIdRule {
  pattern: RegExp;
  method: string;
  scope: ScopeNeed;
  version: 1 | 2;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The rules for the routes of the table. */
export function missingIdRules(routes: readonly Route[]): MissingIdRule[] {
  const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
  const rules: MissingIdRule[] = [];
  for (const route of routes) {
    const at = route.path.indexOf("/:id");
    if (at < 0 || !route.scope || !route.version) continue;
    const head = route.path.slice(0, at);
    const rest = route.path.slice(at + "/:id".length);
    if (!rest && served.has(`${route.method} ${head}`)) continue;
    const segments = (s: string) =>
      s.split(/(:\w+)/).map((part) => (part.startsWith(":") ? `(?:${(route.enumerated[part.slice(1)] ?? []).map(escape).join("|") || "[^/]+"})` : escape(part))).join("");
    const pattern = new RegExp(`^${segments(head)}${rest ? `//+${segments(rest.slice(1))}` : ""}/*$`);
    rules.push({ pattern, method: route.method, scope: route.scope, version: route.version });
  }
  return rules;
}

/** The scope and API version a request would need if it is a one-record operation missing its id. */
export function missingIdScope(rules: readonly MissingIdRule[], method: string, path: string): { scope: ScopeNeed; version: 1 | 2 } | undefined {
  const rule = rules.find((r) => r.method === method && r.pattern.test(path));
  return rule && { scope: rule.scope, version: rule.version };
}

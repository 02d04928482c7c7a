// Deviations in authentication, exact errors and account isolation.
import { mapJson, ONE, retext, text, type Deviation } from "../deviation.ts";

export const ACCESS: Deviation[] = [
  {
    name: "forbidden-instead-of-unauthorized", area: "auth", caughtBy: "without Authorization answers 401",
    what: "a request without Authorization answers 403 `Forbidden`",
    async handle(c) { if (!c.headers.get("authorization")) return text("Forbidden", 403); },
  },
  {
    name: "bearer-accepted", area: "auth", caughtBy: "valid credentials under the scheme Bearer",
    what: "valid Basic credentials sent under the scheme Bearer are accepted",
    async handle(c) {
      const m = /^Bearer (.+)$/.exec(c.headers.get("authorization") ?? "");
      if (m && Buffer.from(m[1]!, "base64").toString().includes(":")) return c.forward({ authorization: `Basic ${m[1]}` });
    },
  },
  {
    name: "not-found-before-forbidden", area: "auth", caughtBy: "holding only the read scopes answers 403",
    what: "a write of a missing id with a read-only key answers 404 before the scope is checked",
    async handle(c) {
      if (c.method === "GET") return;
      const u = await c.forward();
      return u.status === 403 && ONE.test(c.path) ? text("Not Found", 404) : u;
    },
  },
  {
    name: "write-scope-deletes", area: "auth", caughtBy: "holding read and write but no delete scope answers 403",
    what: "a DELETE with a key holding the write scope but not the delete scope goes on to the record (404 for a missing one)",
    async handle(c) {
      if (c.method !== "DELETE") return;
      const u = await c.forward();
      return u.status === 403 ? text("Not Found", 404) : u;
    },
  },
  {
    name: "direction-accepts-anything", area: "errors", caughtBy: "order_by_direction=sideways",
    what: "an order_by_direction other than asc/desc is dropped instead of refused",
    async handle(c) {
      const d = c.query.get("order_by_direction");
      if (d !== null && d !== "asc" && d !== "desc") return c.forward({ search: c.search({ order_by_direction: undefined }) });
    },
  },
  {
    name: "direction-case-insensitive", area: "errors", caughtBy: "order_by_direction=ASC",
    what: "order_by_direction=ASC is read as asc",
    async handle(c) {
      const d = c.query.get("order_by_direction");
      if (d && d !== d.toLowerCase() && ["asc", "desc"].includes(d.toLowerCase())) return c.forward({ search: c.search({ order_by_direction: d.toLowerCase() }) });
    },
  },
  {
    name: "missing-id-not-found", area: "errors", caughtBy: "(no id) answers 400 `Missing ID`",
    what: "an empty id segment answers 404 `Not Found` instead of 400 `Missing ID`",
    async handle(c) {
      if (c.headers.get("authorization") && (/\/\//.test(c.path) || (c.method !== "GET" && c.method !== "POST" && c.path.endsWith("/")))) return text("Not Found", 404);
    },
  },
  {
    name: "not-found-text-lowercase", area: "errors", caughtBy: "of a missing id answers 404 `Not Found`",
    what: "update and delete of a missing id answer 404 `not found`",
    async handle(c) { if (c.method === "PATCH" || c.method === "DELETE") return retext(c, 404, "Not Found", "not found"); },
  },
  {
    name: "leak-other-account", area: "isolation", caughtBy: "with another account's id answers exactly like a missing id",
    what: "a read of another account's id answers 200 with that record",
    async handle(c) {
      if (c.method !== "GET" || !c.otherAuthorization || !/^\/v2\/(batches|recipes|inventory\/\w+)\/[^/]+(\/(readings|readings\/last|brewtracker))?$/.test(c.path)) return;
      const mine = await c.forward();
      if (mine.status !== 404) return mine;
      const theirs = await c.forward({ authorization: c.otherAuthorization });
      return theirs.status === 200 ? theirs : mine;
    },
  },
  {
    name: "other-id-forbidden", area: "isolation", caughtBy: "with another account's id answers exactly like a missing id",
    what: "another account's id answers 403 `Forbidden`, telling it apart from a missing id",
    async handle(c) {
      if (c.method !== "GET" || !c.otherAuthorization || !ONE.test(c.path)) return;
      const mine = await c.forward();
      if (mine.status !== 404) return mine;
      const theirs = await c.forward({ authorization: c.otherAuthorization });
      return theirs.status === 200 ? text("Forbidden", 403) : mine;
    },
  },
  {
    name: "list-leaks-other", area: "isolation", caughtBy: "lists none of another account's records",
    what: "a recipe list of the other account also shows a record of the main account",
    async handle(c) {
      if (c.method !== "GET" || c.path !== "/v2/recipes" || !c.otherAuthorization || c.query.has("start_after")) return;
      if (c.headers.get("authorization") !== c.otherAuthorization) return;
      const u = await c.forward();
      if (!c.mainAuthorization) return u;
      const leaked = JSON.parse((await c.forward({ authorization: c.mainAuthorization, search: "?limit=1" })).body) as unknown[];
      return mapJson(u, (v) => [...leaked, ...v]);
    },
  },
];

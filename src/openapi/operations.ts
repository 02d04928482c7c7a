import type { OperationDoc, Route } from "../http/endpoint.ts";
import type { IngredientCollection } from "../resources.ts";

// Building blocks of OpenAPI operations: parameters, responses and the operation shape every
// endpoint of this API shares (Basic credentials, scope, rate-limit headers, plain-text errors).

type Obj = Record<string, unknown>;
/** The component schema of each inventory collection's item. */
export const ITEM_SCHEMA: Record<IngredientCollection, string> = { fermentables: "Fermentable", hops: "Hop", miscs: "Misc", yeasts: "Yeast" };

export const ref = (name: string): Obj => ({ $ref: `#/components/schemas/${name}` });

const text = (example: string, description: string): Obj => ({
  description,
  content: { "text/plain": { schema: { type: "string" }, example } },
});

const query = (name: string, schema: Obj, description: string): Obj => ({ name, in: "query", required: false, schema, description });
const booleanText = { type: "string", pattern: "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$", examples: ["True", "False"] };

export const ID_PARAMETER: Obj = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "`_id` of the record" };
export const INCLUDE: Obj = query("include", { type: "string" }, "Comma-separated extra fields (dot paths allowed). On a read of one record, the default fields are returned in addition; without it, every field.");

export function listParameters(version: 1 | 2): Obj[] {
  const common = [
    INCLUDE,
    query("complete", booleanText, "`True` returns whole documents, `False` (default) only the default fields plus `include`."),
    query("limit", { type: "integer", minimum: 1, default: 10 }, "Page size, default 10; values above 50 are served as 50."),
  ];
  if (version === 1) return [...common, query("offset", { type: "integer", minimum: 0, default: 0 }, "Documents skipped (version 1 paging).")];
  return [
    ...common,
    query("start_after", { type: "string" }, "The `_id` of the last item of the previous page."),
    query("order_by", { type: "string", default: "_id" }, "Field (or dot path) to order by; ties are ordered by `_id`."),
    query("order_by_direction", { type: "string", enum: ["asc", "desc"], default: "asc" }, "Any other value is 400 `Invalid order by direction`."),
  ];
}

export const STATUS_FILTER = (version: 1 | 2): Obj =>
  query("status", ref("BatchStatus"), version === 1 ? "Batch status to list; default `Planning` in version 1." : "Batch status to list; all statuses when absent.");

/** A query parameter beyond the hosted API's document, marked as such. */
const added = (name: string, schema: Obj, description: string): Obj => ({ ...query(name, schema, `${description} Beyond the hosted API.`), "x-brewrecords-addition": true });

export const STATUS_IN: Obj = added(
  "status_in",
  { type: "string", examples: ["Fermenting,Conditioning"] },
  "Comma list of batch statuses: batches in any of them. Any other value is 400 `Invalid status_in`. With `status` too, both apply.",
);

export const READINGS_RANGE: Obj[] = [
  added("since", { type: "integer", minimum: 0 }, "Only readings whose `time` (ms) is at or after this; 400 `Invalid since` unless a whole number."),
  added("until", { type: "integer", minimum: 0 }, "Only readings whose `time` (ms) is at or before this; 400 `Invalid until` unless a whole number."),
];

export const STOCK_FILTERS: Obj[] = [
  query("inventory_exists", booleanText, "`True`: only items with stock > 0, ordered by stock."),
  query("inventory_negative", booleanText, "`True`: only items with stock < 0, ordered by stock ascending."),
];

const RATE_HEADERS: Obj = {
  RateLimit: { description: 'IETF draft: `"v2";r=<remaining>;t=<seconds to reset>`', schema: { type: "string" } },
  "RateLimit-Policy": { description: 'IETF draft: `"v2";q=<limit>;w=3600`', schema: { type: "string" } },
  "X-RateLimit-Limit": { schema: { type: "integer" } },
  "X-RateLimit-Remaining": { schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
};

export const json = (schema: Obj, description: string): Obj => ({ description, headers: RATE_HEADERS, content: { "application/json": { schema } } });
export const ok = (example: string, description = "Done"): Obj => ({ ...text(example, description), headers: RATE_HEADERS });
export const jsonBody = (schema: Obj, description: string): Obj => ({ required: true, description, content: { "application/json": { schema } } });

const ERROR_RESPONSES: Obj = {
  "401": text("Unauthorized", "Missing or invalid credentials"),
  "403": text("Forbidden", "The key lacks the scope"),
  "429": {
    ...text("Too Many Requests", "Hourly budget spent"),
    headers: { "Retry-After": { description: "Whole seconds until a call is accepted again", schema: { type: "integer", minimum: 1 } } },
  },
};

export const badRequestText = (example: string): Obj => text(example, "Invalid input");
export const VALIDATION_FAILED: Obj = {
  description: "Invalid input: `Missing body`, a malformed body (plain text), or a JSON array of validation issues",
  content: {
    "application/json": { schema: { type: "array", items: ref("ValidationIssue") } },
    "text/plain": { schema: { type: "string" }, example: "Missing body" },
  },
};
export const NOT_FOUND: Obj = text("Not Found", "No such record for this account");

/** Marks an operation beyond the hosted API's document (README, "Beyond the hosted API"). */
export const ADDITION_TAG = "Beyond the hosted API";

/**
 * The OpenAPI operation of a route: its own description, and what every route of its kind shares
 * (Basic credentials, the scope, plain-text refusals); a route without a scope takes no credentials.
 */
export function operation(route: Route, doc: OperationDoc): Obj {
  const { scope, version, tag, addition } = route;
  const id = doc.summary.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""));
  const tags = addition ? [tag, ADDITION_TAG] : [tag];
  if (!scope) {
    const operationId = id[0].toLowerCase() + id.slice(1);
    const marked = addition ? { "x-brewrecords-addition": true } : {};
    return {
      tags, summary: doc.summary, operationId, security: [], ...(doc.description ? { description: doc.description } : {}), ...marked,
      ...(doc.parameters ? { parameters: doc.parameters } : {}), ...(doc.requestBody ? { requestBody: doc.requestBody } : {}), responses: doc.responses,
    };
  }
  const scopes = typeof scope === "string" ? [scope] : [...scope];
  const needed = scopes.length === 1 ? `the \`${scopes[0]}\` scope` : `any one of the scopes ${scopes.map((s) => `\`${s}\``).join(", ")}`;
  const scopeNote = `Requires ${needed}${version === 1 ? " on a version 1 key" : ""}.`;
  return {
    tags,
    summary: doc.summary,
    description: [doc.description, scopeNote].filter(Boolean).join("\n\n"),
    operationId: `${version === 1 ? "v1" : "v2"}${id}`,
    security: [{ basicAuth: [] }],
    "x-scopes": scopes,
    ...(addition ? { "x-brewrecords-addition": true } : {}),
    parameters: doc.parameters ?? [],
    ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
    responses: { ...doc.responses, ...ERROR_RESPONSES },
  };
}

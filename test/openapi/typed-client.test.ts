import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { cli, startServerProcess, tempDir } from "../helpers/process.ts";

// A client generated from the served document (openapi-typescript + openapi-fetch) type-checks
// against the generated types and makes real calls to the running server.
const ROOT = join(import.meta.dir, "..", "..");
const dir = tempDir();
afterAll(() => dir.remove());

const CLIENT = `declare const process: { argv: string[] };
import createClient from "openapi-fetch";
import type { paths } from "./api";

const [baseUrl, userId, key] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { authorization: "Basic " + btoa(userId + ":" + key) } });

const list = await client.GET("/v2/batches", { params: { query: { limit: 5, status: "Fermenting" } } });
const first: string = list.data?.[0]?._id ?? "";
const one = await client.GET("/v2/batches/{id}", { params: { path: { id: first } } });
const patched = await client.PATCH("/v2/batches/{id}", { params: { path: { id: first } }, body: { measuredOg: 1.052, status: "Conditioning" }, parseAs: "text" });
const created = await client.POST("/v2/recipes", { body: { name: "Typed Pale Ale", batchSize: 20, efficiency: 72 } });
const recipeId: string = created.data?.id ?? "";
const recipe = await client.GET("/v2/recipes/{id}", { params: { path: { id: recipeId } } });
const hop = await client.POST("/v2/inventory/hops", { body: { name: "Typed Cascade", alpha: 6.5, inventory: 100 } });
const missing = await client.GET("/v2/batches/{id}/readings/last", { params: { path: { id: "no-such-batch" } } });

// Under strict TypeScript a listed document's _id is a string, with no cast: list -> get -> patch.
const names: string[] = [];
const conditioning = await client.GET("/v2/batches", { params: { query: { status: "Conditioning" } } });
if (!conditioning.data) throw new Error("no list");
for (const entry of conditioning.data) {
  const batch = await client.GET("/v2/batches/{id}", { params: { path: { id: entry._id } } });
  if (!batch.data) throw new Error("no batch");
  const id: string = batch.data._id;
  await client.PATCH("/v2/batches/{id}", { params: { path: { id } }, body: { status: "Completed" }, parseAs: "text" });
  names.push(batch.data.name ?? "");
}
const recipes = await client.GET("/v2/recipes");
const recipeIds: string[] = (recipes.data ?? []).map((r) => r._id);
const hops = await client.GET("/v2/inventory/hops");
const hopIds: string[] = (hops.data ?? []).map((h) => h._id);
const oneHop = hopIds.length ? await client.GET("/v2/inventory/hops/{id}", { params: { path: { id: hopIds[0] } } }) : undefined;
const hopId: string | undefined = oneHop?.data?._id;

// The additions beyond the hosted API: a batch from a recipe, a reading posted, read back since a time.
const started = await client.POST("/v2/batches", { body: { recipeId, name: "Typed Brew" } });
const batchId: string = started.data?.id ?? "";
const posted = await client.POST("/v2/batches/{id}/readings", { params: { path: { id: batchId } }, body: { time: 1700000000000, sg: 1.048, temp: 19.5 } });
const since = await client.GET("/v2/batches/{id}/readings", { params: { path: { id: batchId }, query: { since: 1700000000000 } } });
const dashboard = await client.GET("/v2/batches", { params: { query: { status_in: "Planning,Fermenting" } } });
console.log(JSON.stringify({
  list: [list.response.status, list.data?.length],
  one: [one.response.status, one.data?.name],
  patched: [patched.response.status, patched.data],
  created: [created.response.status, recipeId.length > 0],
  recipe: [recipe.response.status, recipe.data?.name, typeof recipe.data?.og],
  hop: hop.response.status,
  missing: missing.response.status,
  strict: [names, recipeIds.length, hopIds.length, hopId === hopIds[0]],
  additions: [started.response.status, posted.response.status, posted.data?.sg, since.data?.map((r) => [r.time, r.sg]), dashboard.data?.map((b) => b.name)],
}));
`;

test("a client generated from /swagger/json type-checks and calls the server", async () => {
  const env = { DATABASE_URL: join(dir.path, "typed.sqlite") };
  expect(cli(["user", "add", "alice"], env).code).toBe(0);
  const key = cli(["key", "generate", "alice", "--scopes", "all"], env).stdout.trim();
  const data = join(dir.path, "data.json");
  writeFileSync(data, JSON.stringify({ batches: [{ _id: "typed-1", name: "Typed Batch", status: "Fermenting" }] }));
  expect(cli(["import", "alice", data], env).code).toBe(0);
  const server = await startServerProcess(env);
  try {
    const doc = await (await fetch(`${server.url}/swagger/json`)).json();
    writeFileSync(join(dir.path, "api.d.ts"), astToString(await openapiTS(doc)));
    writeFileSync(join(dir.path, "client.ts"), CLIENT);
    writeFileSync(join(dir.path, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        target: "ESNext", module: "ESNext", moduleResolution: "bundler", strict: true, noEmit: true, skipLibCheck: true,
        types: [], lib: ["ESNext", "DOM"], baseUrl: ".", paths: { "openapi-fetch": [join(ROOT, "node_modules/openapi-fetch")] },
      },
      files: ["client.ts", "api.d.ts"],
    }));
    // The typed calls compile: paths, parameters and bodies exist as the document describes them.
    const tsc = Bun.spawnSync([process.execPath, join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir.path]);
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe("");
    expect(tsc.exitCode).toBe(0);
    const run = Bun.spawnSync([process.execPath, join(dir.path, "client.ts"), server.url, "alice", key], { cwd: ROOT });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual({
      list: [200, 1],
      one: [200, "Typed Batch"],
      patched: [200, "Updated"],
      created: [201, true],
      recipe: [200, "Typed Pale Ale", "number"],
      hop: 201,
      missing: 404,
      strict: [["Typed Batch"], 1, 1, true],
      additions: [201, 201, 1.048, [[1700000000000, 1.048]], ["Typed Brew"]],
    });
  } finally {
    await server.stop();
  }
}, 90_000);

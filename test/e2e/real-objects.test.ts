import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalJson } from "../../src/lib/json.ts";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";

// Real objects of the hosted service import and read back unchanged (same fields, same values,
// integers staying integers, keys in alphabetical order): the project's own fixtures always, and the
// reference objects in ../shared/fixtures/brewfather where that folder is present.

type Json = any;
const OWN = join(import.meta.dir, "..", "fixtures", "api");
const SHARED = join(import.meta.dir, "..", "..", "..", "shared", "fixtures", "brewfather");

interface Source {
  name: string;
  completeBatches: Json[];
  readings?: Json[];
  trackers: Json[];
  recipes: Json[];
  inventory: Array<{ collection: string; item: Json }>;
  /** Entries of a default-field list, imported as they are and listed back. */
  lists: Array<{ path: string; section: string; entries: Json[]; expected?: Json[] }>;
}

const read = (dir: string, file: string): Json => JSON.parse(readFileSync(join(dir, file), "utf8"));

function ownSource(): Source {
  const batch = read(OWN, "complete-batch.json");
  const { readings, brewTracker, ...doc } = batch;
  return {
    name: "own fixtures",
    completeBatches: [doc],
    readings: readings ?? read(OWN, "readings.json"),
    trackers: ["planning", "brewing", "started", "paused"].map((s) => read(OWN, `tracker-${s}.json`)).concat(brewTracker ? [brewTracker] : []),
    recipes: existsSync(join(OWN, "recipe-export.json")) ? [read(OWN, "recipe-export.json")] : [],
    inventory: [
      { collection: "fermentables", item: read(OWN, "inventory-fermentable.json") },
      { collection: "hops", item: read(OWN, "inventory-hop.json") },
      { collection: "yeasts", item: read(OWN, "inventory-yeast.json") },
    ],
    lists: Object.entries(read(OWN, "inventory-lists.json") as Record<string, { items: Json[]; list: Json[] }>).map(
      ([section, { items, list }]) => ({ path: `/v2/inventory/${section}`, section, entries: items, expected: list }),
    ),
  };
}

function sharedSource(): Source {
  const fd = join(SHARED, "fdewasmes-brewblox-brewfather-service");
  const mv = join(SHARED, "mvddonk-brewfather");
  const rv = join(SHARED, "renanvieira-brewfather-mcp");
  const recipeFiles = [
    "fdewasmes-brewblox-brewfather-service/sample_recipe.json",
    "machug-brewsignal/Brewfather_RECIPE_PhilterXPAClone_20251207.json",
    "BryggansBryggeri-beer_recipe/Brewfather_RECIPE_Goedar_20200215.json",
    "jens-brand-Brewfather2Brautomat/Brewfather_RECIPE_DonnerPass_20230510.json",
  ];
  return {
    name: "reference objects of the hosted service",
    completeBatches: [read(mv, "batch_complete.json"), read(fd, "sample_batch.json")],
    readings: read(mv, "batch_readings.json"),
    trackers: [
      ...["planning", "brewing", "started", "paused"].map((s) => read(join(fd, "brewtracker"), `${s}.json`)),
      read(join(SHARED, "cacack-mcp-server-brewfather"), "brewtracker_running.json"),
    ],
    recipes: recipeFiles.map((f) => read(SHARED, f)),
    inventory: [
      { collection: "fermentables", item: read(rv, "inventory_fermentables_detail.json") },
      { collection: "hops", item: read(rv, "inventory_hops_detail.json") },
      { collection: "yeasts", item: read(rv, "inventory_yeasts_detail.json") },
    ],
    lists: [
      { path: "/v2/inventory/fermentables", section: "fermentables", entries: read(rv, "inventory_fermentables_list.json") },
      { path: "/v2/inventory/hops", section: "hops", entries: read(rv, "inventory_hops_list.json") },
      { path: "/v2/inventory/yeasts", section: "yeasts", entries: read(rv, "inventory_yeasts_list.json") },
    ],
  };
}

const byId = (a: Json, b: Json) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

function roundTrip(load: () => Source, available: boolean) {
  describe.skipIf(!available)(`${available ? load().name : "reference objects (../shared not present)"} read back unchanged`, () => {
    const dir = tempDir();
    const env = { DATABASE_URL: join(dir.path, "real.sqlite"), DEMO: "0" };
    let server: ServerProcess;
    let source: Source;
    const accounts: string[] = [];
    const keys = new Map<string, string>();

    // Each part goes into an account of its own, so lists show exactly what was imported.
    function account(name: string, document: Json) {
      expect(cli(["user", "add", name], env).code).toBe(0);
      const key = cli(["key", "generate", name, "--scopes", "all"], env).stdout.trim();
      const file = join(dir.path, `${name}.json`);
      writeFileSync(file, JSON.stringify(document));
      const res = cli(["import", name, file], env);
      expect(res.stderr).toContain("imported");
      keys.set(name, key);
      accounts.push(name);
    }
    const get = async (name: string, path: string) => {
      const res = await fetch(server.url + path, { headers: { authorization: basic(name, keys.get(name)!) } });
      expect(res.status).toBe(200);
      return res.text();
    };

    beforeAll(async () => {
      source = load();
      account("batches", {
        batches: source.completeBatches.map((b, i) => (i === 0 ? { ...b, readings: source.readings } : b)),
      });
      account("trackers", { batches: source.trackers.map((t, i) => ({ _id: `tracked-${i}`, status: "Brewing", brewTracker: t })) });
      account("recipes", { recipes: source.recipes });
      for (const { collection, item } of source.inventory) account(`item-${collection}`, { [collection]: [item] });
      for (const { section, entries } of source.lists) account(`list-${section}`, { [section]: entries });
      server = await startServerProcess(env);
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
      dir.remove();
    });

    test("a complete batch reads back as canonical JSON of what was imported", async () => {
      for (const batch of source.completeBatches) {
        expect(await get("batches", `/v2/batches/${encodeURIComponent(batch._id)}`)).toBe(canonicalJson(batch));
      }
    });

    test("readings read back in time order, and readings/last is the newest", async () => {
      const id = encodeURIComponent(source.completeBatches[0]._id);
      const sorted = [...(source.readings ?? [])].sort((a, b) => a.time - b.time);
      expect(await get("batches", `/v2/batches/${id}/readings`)).toBe(canonicalJson(sorted));
      expect(await get("batches", `/v2/batches/${id}/readings/last`)).toBe(canonicalJson(sorted[sorted.length - 1]));
    });

    test("brew trackers in every state read back unchanged", async () => {
      for (let i = 0; i < source.trackers.length; i++) {
        expect(await get("trackers", `/v2/batches/tracked-${i}/brewtracker`)).toBe(canonicalJson(source.trackers[i]));
      }
    });

    test("recipes read back unchanged (imports are stored as they are)", async () => {
      for (const recipe of source.recipes) {
        expect(await get("recipes", `/v2/recipes/${encodeURIComponent(recipe._id)}`)).toBe(canonicalJson(recipe));
      }
    });

    test("inventory items read back unchanged", async () => {
      for (const { collection, item } of source.inventory) {
        expect(await get(`item-${collection}`, `/v2/inventory/${collection}/${encodeURIComponent(item._id)}`)).toBe(canonicalJson(item));
      }
    });

    test("lists show the default fields of what was imported, in alphabetical key order, ordered by _id", async () => {
      for (const { path, section, entries, expected } of source.lists) {
        expect(await get(`list-${section}`, `${path}?limit=50`)).toBe(canonicalJson(expected ?? [...entries].sort(byId)));
      }
    });
  });
}

roundTrip(ownSource, true);
roundTrip(sharedSource, existsSync(SHARED));

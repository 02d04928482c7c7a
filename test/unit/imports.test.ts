// The house's imports: arrows point down the layers and never make a circle (STYLE.md, "The house as it
// stands"). Read from the files themselves, static imports, re-exports and dynamic import() alike.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

// Top to bottom. A file may import from its own layer or any below it. Feature folders are one layer:
// a feature may use a sibling's rules (the pages read through the services), never the app above it.
const LAYERS: Array<[string, string[]]> = [
  ["cli", ["src/cli/"]],
  ["server", ["src/server.ts"]],
  ["app", ["src/app.ts"]],
  ["api", ["src/api.ts"]],
  [
    "features",
    ["src/batches/", "src/recipes/", "src/inventory/", "src/devices/", "src/webhooks/", "src/readings/", "src/web/", "src/openapi/", "src/pull/", "src/demo/", "src/demo-account.ts", "src/import.ts"],
  ],
  ["http", ["src/http/"]],
  ["store", ["src/store/"]],
  ["base", ["src/calc/", "src/catalog/", "src/schema/", "src/lib/", "src/resources.ts", "src/config.ts"]],
];

function layerOf(file: string): number {
  const at = LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => file === p || file.startsWith(p)));
  if (at < 0) throw new Error(`${file} is in no layer: add it to LAYERS`);
  return at;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = `${dir}/${name}`;
    if (name === "node_modules") continue;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|js)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** The repository files a source file imports (relative specifiers only; packages are not the house's). */
export function importsOf(file: string, text = readFileSync(join(ROOT, file), "utf8")): string[] {
  const out = new Set<string>();
  for (const m of text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith(".")) continue;
    const base = resolve(join(ROOT, dirname(file)), spec);
    const found = [base, `${base}.ts`, `${base}.js`, join(base, "index.ts")].find((p) => existsSync(p) && statSync(p).isFile());
    if (!found) throw new Error(`${file}: cannot resolve ${spec}`);
    out.add(relative(ROOT, found));
  }
  return [...out].filter((f) => /\.(ts|js)$/.test(f));
}

/** Every import circle of a graph, each as the files along it (Tarjan's strongly connected components). */
export function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return out;
}

const graphOf = (files: string[]) => new Map(files.map((f) => [f, importsOf(f)]));

describe("imports", () => {
  const src = graphOf(sources("src"));
  const kit = graphOf(sources("contracts"));

  test("no file of src/ imports from a layer above its own", () => {
    const upward: string[] = [];
    for (const [file, imports] of src) {
      for (const target of imports) {
        if (!target.startsWith("src/")) upward.push(`${file} -> ${target} (outside src/)`);
        else if (layerOf(target) < layerOf(file)) upward.push(`${file} (${LAYERS[layerOf(file)][0]}) -> ${target} (${LAYERS[layerOf(target)][0]})`);
      }
    }
    expect(upward).toEqual([]);
  });

  test("src/ has no import circle", () => {
    expect(circles(src)).toEqual([]);
  });

  test("contracts/ imports nothing outside itself and has no import circle", () => {
    const outside = [...kit].flatMap(([file, imports]) => imports.filter((t) => !t.startsWith("contracts/")).map((t) => `${file} -> ${t}`));
    expect(outside).toEqual([]);
    expect(circles(kit)).toEqual([]);
  });

  test("the reader sees every kind of import, and the checks find a planted arrow up and a planted circle", () => {
    const text = `import a from "./a.ts";\nexport { b } from "./b.ts";\nconst c = () => import("./c.ts");\nimport "./d.ts";\n// import x from "./x.ts";`;
    const seen = [...text.replace(/^\s*\/\/.*$/gm, "").matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3]);
    expect(seen).toEqual(["./a.ts", "./b.ts", "./c.ts", "./d.ts"]);
    expect(circles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]]);
    expect(circles(new Map([["a", ["b"]], ["b", []]]))).toEqual([]);
    expect(layerOf("src/store/sqlite.ts")).toBeGreaterThan(layerOf("src/http/auth.ts"));
    expect(layerOf("src/lib/json.ts")).toBeGreaterThan(layerOf("src/store/types.ts"));
  });
});

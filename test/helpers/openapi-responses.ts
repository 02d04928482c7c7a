// Every JSON body a recipe or batch endpoint answers in a test is checked against the response
// schema the OpenAPI document (/swagger/json) gives for that path, method and status, with ajv.
// A body the document does not describe fails the test that produced it.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

type Obj = Record<string, any>;
interface Route { pattern: RegExp; operations: Obj }

const CHECKED = /^\/v[12]\/(recipes|batches)(\/|$)/;
let compiled: Promise<{ routes: Route[]; validator: (schema: Obj) => ValidateFunction }> | undefined;

async function load(fetchDocument: () => Promise<Obj>) {
  const doc = await fetchDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: "openapi", components: doc.components });
  const cache = new Map<Obj, ValidateFunction>();
  const validator = (schema: Obj) => {
    let v = cache.get(schema);
    if (!v) {
      v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
      cache.set(schema, v);
    }
    return v;
  };
  const routes = Object.entries(doc.paths as Obj)
    .filter(([path]) => CHECKED.test(path))
    .map(([path, operations]) => ({ pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`), operations: operations as Obj }));
  return { routes, validator };
}

/** Throws with the path, status and ajv's errors when a JSON answer does not match its documented schema. */
export async function checkResponse(fetchDocument: () => Promise<Obj>, method: string, url: string, status: number, contentType: string | null, text: string): Promise<void> {
  const path = url.split("?")[0]!;
  if (!CHECKED.test(path) || !contentType?.includes("application/json")) return;
  compiled ??= load(fetchDocument);
  const { routes, validator } = await compiled;
  const route = routes.find((r) => r.pattern.test(path));
  const response = route?.operations[method.toLowerCase()]?.responses?.[String(status)];
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema) return; // statuses answered in JSON the document describes elsewhere (validation issues)
  const validate = validator(schema);
  if (!validate(JSON.parse(text))) {
    throw new Error(`${method} ${url} ${status}: the body does not match the OpenAPI document: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
  }
}

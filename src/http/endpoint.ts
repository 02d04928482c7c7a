import { andThen, type Awaitable } from "../lib/awaitable.ts";
import type { Doc } from "../lib/json.ts";
import type { ScopeNeed } from "../lib/scopes.ts";
import type { StoredJson } from "../store/types.ts";
import type { ApiVersion, Authenticator } from "./auth.ts";
import { heldBody, readJsonObject, readPatchInput, type BodyOrRefusal } from "./body.ts";
import { jsonText, notFound, Reply, text } from "./errors.ts";

/** What an API route is given by the router: the request and the parameters of its route. */
export interface RouteContext {
  request: Request;
  params: Record<string, string>;
}

/**
 * How a route takes its body. `object`: a JSON object, refused at once (a create has no record to be
 * missing). `patch`: the JSON object, else the query parameters (clients of the hosted service send
 * `PATCH …?status=Conditioning`), held with its refusal. `held`: the JSON object, held with its refusal.
 */
export interface BodyKinds {
  none: undefined;
  object: Doc | undefined;
  patch: BodyOrRefusal<Doc | undefined>;
  held: BodyOrRefusal<Doc | undefined>;
}
export type BodyKind = keyof BodyKinds;

/** What a handler is given once every check before it has passed. */
export interface Call<B extends BodyKind = "none"> extends RouteContext {
  /** The account of the key; "" on a route without credentials. */
  userId: string;
  body: BodyKinds[B];
}

/** How a handler's value becomes the answer: stored JSON as it is, an exact text, or a Reply of its own. */
export interface Answers {
  json: StoredJson;
  text: string;
  reply: Reply;
}
export type AnswerKind = keyof Answers;

type Obj = Record<string, unknown>;

/** The OpenAPI description of an operation; the scope, version and tag come from its route. */
export interface OperationDoc {
  summary: string;
  description?: string;
  parameters?: Obj[];
  requestBody?: Obj;
  responses: Obj;
}

export interface RouteSpec<B extends BodyKind, A extends AnswerKind> {
  /** The scope a key needs (or any one of a list); absent on a route that takes no credentials (the health check). */
  scope?: ScopeNeed;
  body?: B;
  answer: A;
  /** The operation for the OpenAPI document; a function of the values of the route's enumerated parameters. */
  doc: OperationDoc | ((values: Record<string, string>) => OperationDoc);
}

/** A route of the table: how it is documented, and the values its enumerated path parameters take. */
export interface Route {
  method: string;
  path: string;
  version?: ApiVersion;
  tag: string;
  scope?: ScopeNeed;
  /** Beyond the hosted API's document: marked so in the OpenAPI document. */
  addition: boolean;
  enumerated: Record<string, readonly string[]>;
  doc: RouteSpec<BodyKind, AnswerKind>["doc"];
}

/** An API route's whole answer to a request: the Response with every header, or its promise. */
export type Endpoint = (ctx: RouteContext) => Awaitable<Response>;

/** How the app turns an answer, or a failure, into the Response with every header (src/api.ts). */
export interface Responder {
  /** `later`: the answer was completed after an await, outside the request's first turn. */
  reply(request: Request, reply: Reply, route: string, later?: boolean): Response;
  fail(request: Request, error: unknown, route: string | undefined): Response;
}

/**
 * Every endpoint of the API (and the health check), registered once: by route and method for the two
 * routers (src/api.ts), and as a list of routes from which the OpenAPI document's paths are made.
 */
export class EndpointTable {
  readonly byRoute: Record<string, Record<string, Endpoint>> = {};
  readonly routes: Route[] = [];

  add(route: Route, endpoint: Endpoint): void {
    (this.byRoute[route.path] ??= {})[route.method] = endpoint;
    this.routes.push(route);
  }
}

export interface ModuleOptions {
  version?: ApiVersion;
  tag: string;
  /** Path parameters that take one of a few values; any other value is 404 after the credentials. */
  enumerated?: Record<string, readonly string[]>;
  addition?: boolean;
}

const answer = (kind: AnswerKind, value: Answers[AnswerKind]): Reply =>
  kind === "json" ? jsonText(value as StoredJson) : kind === "text" ? text(value as string) : (value as Reply);

/**
 * The API routes of one module, and the one place where a request's checks run in their order
 * (API document, Errors; docs/decisions.md, HTTP precedence):
 *   1. 401 credentials, 2. 429 the hourly budget, 3. 403 the scope  (Authenticator.authorize)
 *   4. 404 an enumerated path parameter of another value            (below)
 *   5. the body is read, and a `patch` or `held` body's refusal is held
 *   6. the handler: 404 for a missing record, then the held 400/413/415, then the rule's own 400.
 * This is also where sync meets async, once: a step that answers at once (an in-memory store, a cached
 * key) goes on at once, and a step that waits is waited for, so handlers read as one flat pipeline.
 */
export class ApiRoutes {
  private readonly auth: Authenticator;
  private readonly responder: Responder;
  private readonly endpoints: EndpointTable;
  private readonly maxBodyBytes: number;

  constructor(
    deps: { auth: Authenticator; responder: Responder; endpoints: EndpointTable; config: { maxBodyBytes: number } },
    private readonly options: ModuleOptions,
  ) {
    this.auth = deps.auth;
    this.responder = deps.responder;
    this.endpoints = deps.endpoints;
    this.maxBodyBytes = deps.config.maxBodyBytes;
  }

  get<B extends BodyKind = "none", A extends AnswerKind = AnswerKind>(path: string, spec: RouteSpec<B, A>, handler: (call: Call<B>) => Awaitable<Answers[A]>): this {
    return this.add("GET", path, spec, handler);
  }

  post<B extends BodyKind = "none", A extends AnswerKind = AnswerKind>(path: string, spec: RouteSpec<B, A>, handler: (call: Call<B>) => Awaitable<Answers[A]>): this {
    return this.add("POST", path, spec, handler);
  }

  patch<B extends BodyKind = "none", A extends AnswerKind = AnswerKind>(path: string, spec: RouteSpec<B, A>, handler: (call: Call<B>) => Awaitable<Answers[A]>): this {
    return this.add("PATCH", path, spec, handler);
  }

  put<B extends BodyKind = "none", A extends AnswerKind = AnswerKind>(path: string, spec: RouteSpec<B, A>, handler: (call: Call<B>) => Awaitable<Answers[A]>): this {
    return this.add("PUT", path, spec, handler);
  }

  delete<B extends BodyKind = "none", A extends AnswerKind = AnswerKind>(path: string, spec: RouteSpec<B, A>, handler: (call: Call<B>) => Awaitable<Answers[A]>): this {
    return this.add("DELETE", path, spec, handler);
  }

  private add<B extends BodyKind, A extends AnswerKind>(method: string, path: string, spec: RouteSpec<B, A>, handler: (call: Call<B>) => Awaitable<Answers[A]>): this {
    const { version, tag, enumerated = {}, addition = false } = this.options;
    const route: Route = { method, path, version, tag, scope: spec.scope, addition, enumerated, doc: spec.doc };
    this.endpoints.add(route, this.endpoint(path, spec, handler));
    return this;
  }

  private endpoint<B extends BodyKind, A extends AnswerKind>(route: string, spec: RouteSpec<B, A>, handler: (call: Call<B>) => Awaitable<Answers[A]>): Endpoint {
    const { auth, responder, maxBodyBytes } = this;
    const { version = 2, enumerated = {} } = this.options;
    const checked = Object.entries(enumerated);
    const { scope, body: kind = "none", answer: as } = spec;
    const readBody = (request: Request): Promise<BodyKinds[BodyKind]> | undefined =>
      kind === "object" ? readJsonObject(request, maxBodyBytes) : kind === "patch" ? readPatchInput(request, maxBodyBytes) : kind === "held" ? heldBody(readJsonObject(request, maxBodyBytes)) : undefined;
    const handle = (ctx: RouteContext, userId: string): Awaitable<Answers[A]> => {
      for (const [name, values] of checked) if (!values.includes(ctx.params[name])) throw notFound();
      const body = readBody(ctx.request);
      if (body === undefined) return handler({ ...ctx, userId, body: undefined as BodyKinds[B] });
      return body.then((b) => handler({ ...ctx, userId, body: b as BodyKinds[B] }));
    };
    const run = (ctx: RouteContext): Awaitable<Response> => {
      const { request } = ctx;
      let reply: Awaitable<Reply>;
      try {
        const value = scope ? andThen(auth.authorize(request, scope, version), ({ userId }) => handle(ctx, userId)) : handle(ctx, "");
        reply = andThen(value, (v) => answer(as, v));
      } catch (error) {
        return responder.fail(request, error, route);
      }
      if (!(reply instanceof Promise)) return responder.reply(request, reply, route);
      return reply.then(
        (r) => responder.reply(request, r, route, true),
        (error: unknown) => responder.fail(request, error, route),
      );
    };
    // Bound: Elysia then sees no source to infer from (src/api.ts), calls it plainly and leaves the body unread.
    return run.bind(undefined);
  }
}

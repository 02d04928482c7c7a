import type { Awaitable } from "../lib/awaitable.ts";
import type { Reply } from "./errors.ts";

/** What an API handler is given: the request and the parameters of its route. */
export interface RouteContext {
  request: Request;
  params: Record<string, string>;
}

/** An API handler: a Reply now (a store in memory, a cached key) or later (a body to read, a networked store). */
export type Handler = (ctx: RouteContext) => Awaitable<Reply>;

/** How the app turns an answer, or a failure, into the Response with every header (src/app.ts). */
export interface Responder {
  reply(request: Request, reply: Reply, route: string): Response;
  fail(request: Request, error: unknown, route: string | undefined): Response;
}

/** An API route's whole answer to a request: the Response with every header, or its promise. */
export type Endpoint = (ctx: RouteContext) => Awaitable<Response>;

/**
 * Every endpoint of the API (and the health check), by route and method. Elysia routes each of them
 * for `app.handle`; the server also hands them to Bun.serve's own router, which calls them without
 * Elysia's routing and request context (src/server.ts).
 */
export class EndpointTable {
  readonly byRoute: Record<string, Record<string, Endpoint>> = {};

  add(method: string, route: string, endpoint: Endpoint): void {
    (this.byRoute[route] ??= {})[method] = endpoint;
  }
}

/**
 * The API routes of one module, registered in the app's endpoint table. Each handler answers for
 * itself: its Reply, or its failure, becomes the Response here, so the app registers these routes in
 * Elysia before its hooks and Elysia compiles each to a plain call, and the server can hand them to
 * Bun's own router as they are. A handler that answers at once gives the Response at once, with no
 * promise made for the request anywhere.
 */
export class ApiRoutes {
  private readonly responder: Responder;
  private readonly endpoints: EndpointTable;

  constructor({ responder, endpoints }: { responder: Responder; endpoints: EndpointTable }) {
    this.responder = responder;
    this.endpoints = endpoints;
  }

  get(path: string, handler: Handler): this {
    return this.add("GET", path, handler);
  }

  post(path: string, handler: Handler): this {
    return this.add("POST", path, handler);
  }

  put(path: string, handler: Handler): this {
    return this.add("PUT", path, handler);
  }

  patch(path: string, handler: Handler): this {
    return this.add("PATCH", path, handler);
  }

  delete(path: string, handler: Handler): this {
    return this.add("DELETE", path, handler);
  }

  private add(method: string, path: string, handler: Handler): this {
    this.endpoints.add(method, path, this.endpoint(path, handler));
    return this;
  }

  private endpoint(route: string, handler: Handler): Endpoint {
    const { responder } = this;
    const run = (ctx: RouteContext): Awaitable<Response> => {
      const { request } = ctx;
      let reply: Awaitable<Reply>;
      try {
        reply = handler(ctx);
      } catch (error) {
        return responder.fail(request, error, route);
      }
      if (!(reply instanceof Promise)) return responder.reply(request, reply, route);
      return reply.then(
        (r) => responder.reply(request, r, route),
        (error: unknown) => responder.fail(request, error, route),
      );
    };
    // Elysia reads a handler's source text to decide how to call it: text showing `return f(` counts
    // as async, and every request would then wait on a promise. A bound function shows no source. It
    // also shows no use of the body, which Elysia therefore leaves unread for the handler to read.
    return run.bind(undefined);
  }
}

import type { Config } from "../config.ts";
import type { Store } from "../store/types.ts";
import type { ApiVersion, Authenticator } from "./auth.ts";
import type { EndpointTable, Responder } from "./endpoint.ts";

/** What route modules are built from. */
export interface Deps {
  config: Config;
  store: Store;
  auth: Authenticator;
  /** Makes the Response of an API answer or failure (src/app.ts). */
  responder: Responder;
  /** Where the API routes list their endpoints for the server's router. */
  endpoints: EndpointTable;
}

/** Path prefix of an API version. */
export const prefix = (version: ApiVersion) => `/v${version}`;

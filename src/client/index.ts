/**
 * `standing/client`: a typed client of the standing service's HTTP API, on global fetch. It
 * loads nothing of the service (its types come from the API's schemas, as types only), so it
 * runs in any Node process and in a browser.
 */
export { StandingClient } from './client.js';
export { StandingApiError } from './error.js';
export { retryAfterSeconds, type CallOptions, type ClientOptions } from './request.js';
export type * from './types.js';

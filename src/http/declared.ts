/**
 * A route declared once for every API that serves it: its method, path and options (the scope it
 * needs, its schema and documentation, its hooks). `standing serve` and a worker's partition
 * register it with the handler over their live engine (./routes/); a cluster gateway registers
 * the same declaration with a handler that forwards the request to the worker owning its
 * community (../cluster/gateway-reads.ts). So either way a request meets one schema, one key
 * check and one OpenAPI entry.
 */
import type { FastifyInstance, HTTPMethods, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';

export interface DeclaredRoute {
  readonly method: HTTPMethods;
  readonly url: string;
  readonly options: RouteShorthandOptions;
}

export type Handler<G extends RouteGenericInterface = RouteGenericInterface> = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, G>;

export function declared(method: HTTPMethods, url: string, options: RouteShorthandOptions): DeclaredRoute {
  return { method, url, options };
}

/** Registers `route`, answered by `handler`. */
export function register<G extends RouteGenericInterface = RouteGenericInterface>(app: FastifyInstance, route: DeclaredRoute, handler: Handler<G>): void {
  app.route<G>({ ...route.options, method: route.method, url: route.url, handler });
}

/**
 * The HTTP API as a contract: an answer is checked against the OpenAPI document the service
 * serves (/docs/json). Its operation must list its status, that response must list its media
 * type, and a JSON body must be valid against that response's schema (Ajv). An answer to a path
 * or method no operation describes must be the 404 error body; the document's own pages and the
 * dashboard's files are not operations.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

interface Response {
  readonly description: string;
  readonly content?: Readonly<Record<string, { readonly schema: unknown }>>;
}

export interface Operation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly security?: readonly Record<string, readonly string[]>[];
  readonly 'x-scope'?: string;
  readonly responses: Readonly<Record<string, Response>>;
}

export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components: { readonly schemas: Readonly<Record<string, unknown>> };
}

/** An answer the document does not describe. */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  readonly operations: Readonly<Record<string, Operation>>;
}

/** Paths that are no operation: the API reference itself and the dashboard's files. */
const NOT_OPERATIONS = /^\/(?:docs(?:\/|$)|$|assets\/|[^/]+\.[a-z0-9]+$)/;

/** A JSON pointer segment. */
const segment = (text: string) => encodeURIComponent(text.replace(/~/g, '~0').replace(/\//g, '~1'));

export class Contract {
  /** `METHOD /template STATUS` of every answer checked against an operation. */
  readonly answered = new Set<string>();
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly routes: readonly Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    formats.default(this.ajv);
    this.ajv.addSchema(document as object, 'openapi');
    const params = (template: string) => (template.match(/\{/g) ?? []).length;
    this.routes = Object.entries(document.paths)
      .map(([template, operations]) => ({ template, operations, pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
      .sort((a, b) => params(a.template) - params(b.template)); // /v1/alerts/stream before a template that could take it
  }

  /** The documented operation `method` `url` reaches, if any. */
  operation(method: string, url: string): { template: string; operation: Operation } | undefined {
    const path = new URL(url, 'http://service').pathname;
    const key = (method === 'HEAD' ? 'GET' : method).toLowerCase();
    for (const route of this.routes) {
      if (!route.pattern.test(path)) continue;
      const operation = route.operations[key];
      return operation === undefined ? undefined : { template: route.template, operation };
    }
    return undefined;
  }

  /** Throws ContractViolation unless the document describes this answer; `body` is undefined when not read (a stream). */
  check(method: string, url: string, status: number, contentType: string | null, body: string | undefined): void {
    const path = new URL(url, 'http://service').pathname;
    const what = `${method} ${path} answered ${status}`;
    const found = this.operation(method, url);
    if (found === undefined) {
      if (NOT_OPERATIONS.test(path) && status < 400) return;
      if (status !== 404 || body === undefined) throw new ContractViolation(`${what}, but no operation of the document serves ${method} ${path}`);
      this.validate('openapi#/components/schemas/Error', what, body);
      if ((JSON.parse(body) as { error: string }).error !== 'NOT_FOUND') throw new ContractViolation(`${what} with ${body}, not NOT_FOUND`);
      return;
    }
    const { template, operation } = found;
    const response = operation.responses[String(status)];
    if (response === undefined) {
      throw new ContractViolation(`${what}: ${operation.operationId ?? template} documents only ${Object.keys(operation.responses).join(', ')}${body === undefined ? '' : ` (body ${body.slice(0, 300)})`}`);
    }
    this.answered.add(`${method === 'HEAD' ? 'GET' : method} ${template} ${status}`);
    const media = contentType?.split(';')[0]!.trim().toLowerCase();
    if (response.content === undefined) {
      if (body !== undefined && body !== '') throw new ContractViolation(`${what} with a body, which the document does not describe`);
      return;
    }
    if (media === undefined || response.content[media] === undefined) {
      throw new ContractViolation(`${what} as ${contentType ?? 'no content type'}: the document lists ${Object.keys(response.content).join(', ')}`);
    }
    if (body === undefined || method === 'HEAD' || media !== 'application/json') return;
    const pointer = ['paths', template, method.toLowerCase(), 'responses', String(status), 'content', media, 'schema'].map(segment).join('/');
    this.validate(`openapi#/${pointer}`, what, body);
  }

  private validate(ref: string, what: string, body: string): void {
    let validate = this.validators.get(ref);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new ContractViolation(`${what} with a body that is not JSON: ${body.slice(0, 300)}`);
    }
    if (!validate(value)) throw new ContractViolation(`${what} with a body its schema refuses: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}\n${body.slice(0, 500)}`);
  }
}

/** The document `origin` serves. */
export async function contractOf(origin: string): Promise<Contract> {
  const response = await fetch(`${origin}/docs/json`);
  if (response.status !== 200) throw new Error(`${origin}/docs/json answered ${response.status}`);
  return new Contract((await response.json()) as OpenApiDocument);
}

/** Checks `response` (to `method` `url`) against `contract`: reads a clone of its body unless it is a stream. */
export async function checkAnswer(contract: Contract, method: string, url: string, response: globalThis.Response): Promise<void> {
  const contentType = response.headers.get('content-type');
  const stream = contentType?.startsWith('text/event-stream') === true;
  const body = stream || method === 'HEAD' ? undefined : await response.clone().text();
  contract.check(method, url, response.status, contentType, body);
}

const contracts = new Map<string, Promise<Contract>>();

/** fetch, with the answer checked against the document its service serves (fetched once per origin). */
export async function contractFetch(url: string, init: RequestInit = {}): Promise<globalThis.Response> {
  const { origin } = new URL(url);
  let contract = contracts.get(origin);
  if (contract === undefined) {
    contract = contractOf(origin);
    contracts.set(origin, contract);
  }
  const response = await fetch(url, init);
  await checkAnswer(await contract, init.method ?? 'GET', url, response);
  return response;
}

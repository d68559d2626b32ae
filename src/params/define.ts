/**
 * Typed parameters: frozen defaults and a resolver that rejects unknown keys and invalid
 * values. Values may come as strings (from `--set T=8` or a query string) and are coerced by
 * each field's reader.
 */
import { ParameterError } from '../errors.js';

/** Reads one raw value into a typed one, or returns a reason (a string) it is invalid. */
export type FieldReader<V> = (raw: unknown) => V | { readonly invalid: string };

export type FieldReaders<P> = { readonly [K in keyof P]: FieldReader<P[K]> };

export interface ParamsDefinition<P> {
  readonly owner: string;
  readonly defaults: Readonly<P>;
  /** Defaults overridden by `input`; throws ParameterError on an unknown key or invalid value. */
  resolve(input?: Readonly<Record<string, unknown>> | Partial<P>): Readonly<P>;
}

export function defineParams<P extends object>(
  owner: string,
  defaults: P,
  readers: FieldReaders<P>,
  /** Cross-field rule: returns [key, reason] when the combination is invalid. */
  check?: (params: P) => readonly [keyof P & string, string] | undefined,
): ParamsDefinition<P> {
  const frozen = Object.freeze({ ...defaults });
  const known = Object.keys(readers) as (keyof P & string)[];
  return Object.freeze({
    owner,
    defaults: frozen,
    resolve(input: Readonly<Record<string, unknown>> | Partial<P> = {}): Readonly<P> {
      const params = { ...frozen } as P;
      for (const [key, raw] of Object.entries(input)) {
        if (!Object.hasOwn(readers, key)) {
          throw new ParameterError(owner, key, `is not a parameter of ${owner} (known: ${known.join(', ')})`);
        }
        const value = readers[key as keyof P](raw);
        if (typeof value === 'object' && value !== null && 'invalid' in value) {
          throw new ParameterError(owner, key, `${value.invalid}, got ${JSON.stringify(raw)}`);
        }
        params[key as keyof P] = value as P[keyof P];
      }
      const problem = check?.(params);
      if (problem !== undefined) throw new ParameterError(owner, problem[0], problem[1]);
      return Object.freeze(params);
    },
  });
}

const INFINITY_SPELLINGS = new Set(['Infinity', 'infinity', 'inf', 'Inf', '∞']);

/** A number from a number or a numeric string; `Infinity`, `inf` and `∞` spell infinity. */
export function toNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (INFINITY_SPELLINGS.has(text)) return Infinity;
    if (text !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  }
  return NaN;
}

export const readers = {
  /** Integer ≥ min, or Infinity when allowed. */
  integer(min: number, allowInfinity: boolean): FieldReader<number> {
    const wanted = `must be an integer ≥ ${min}${allowInfinity ? ' or Infinity' : ''}`;
    return (raw) => {
      const n = toNumber(raw);
      if (n === Infinity && allowInfinity) return n;
      return Number.isInteger(n) && n >= min ? n : { invalid: wanted };
    };
  },
  /** Finite number > 0. */
  positive(): FieldReader<number> {
    return (raw) => {
      const n = toNumber(raw);
      return Number.isFinite(n) && n > 0 ? n : { invalid: 'must be a finite number > 0' };
    };
  },
  /** true or false (also the strings "true" and "false"). */
  boolean(): FieldReader<boolean> {
    return (raw) => (raw === true || raw === 'true' ? true : raw === false || raw === 'false' ? false : { invalid: 'must be true or false' });
  },
  /** Number ≥ min, or Infinity. */
  numberOrInfinity(min: number): FieldReader<number> {
    return (raw) => {
      const n = toNumber(raw);
      return n === Infinity || (Number.isFinite(n) && n >= min) ? n : { invalid: `must be a number ≥ ${min} or Infinity` };
    };
  },
  /** Number > 0, or Infinity. */
  positiveOrInfinity(): FieldReader<number> {
    return (raw) => {
      const n = toNumber(raw);
      return n > 0 ? n : { invalid: 'must be a number > 0 or Infinity' };
    };
  },
  /** Finite number ≥ min. */
  number(min: number): FieldReader<number> {
    return (raw) => {
      const n = toNumber(raw);
      if (Number.isFinite(n) && n >= min) return n;
      return { invalid: min === -Infinity ? 'must be a finite number' : `must be a finite number ≥ ${min}` };
    };
  },
} as const;

/**
 * Why an event failed its payload check: the first TypeBox error, as a field (path without the
 * leading slash) and a reason. TypeBox is loaded here, synchronously and only on the first
 * failure, so a valid log never pays for loading it.
 */
import { createRequire } from 'node:module';
import type * as TypeBox from '@sinclair/typebox';
import type * as Compiler from '@sinclair/typebox/compiler';
import type * as Errors from '@sinclair/typebox/errors';
import { ID_TOO_LONG, MAX_ID_LENGTH } from './limits.js';
import { payloadSchemas } from './schema.js';
import type { EventType } from './types.js';

type Validators = { readonly [T in EventType]: { Errors(value: unknown): Iterable<Errors.ValueError> } };

let loaded: { validators: Validators; kinds: typeof Errors.ValueErrorType } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const { Type } = require('@sinclair/typebox') as typeof TypeBox;
  const { TypeCompiler } = require('@sinclair/typebox/compiler') as typeof Compiler;
  const { ValueErrorType } = require('@sinclair/typebox/errors') as typeof Errors;
  const schemas = payloadSchemas(Type);
  const validators = Object.fromEntries(Object.entries(schemas).map(([type, schema]) => [type, TypeCompiler.Compile(schema)])) as unknown as Validators;
  return (loaded = { validators, kinds: ValueErrorType });
}

/** The first reason `value` fails the `type` payload schema, as [field, reason]. */
export function payloadError(type: EventType, value: unknown): [string, string] {
  const { validators, kinds } = load();
  for (const error of validators[type].Errors(value)) return [error.path.slice(1), reasonOf(error, type, kinds)];
  return ['', 'is invalid'];
}

function reasonOf({ type: kind, schema }: Errors.ValueError, eventType: string, kinds: typeof Errors.ValueErrorType): string {
  switch (kind) {
    case kinds.ObjectRequiredProperty:
      return `is required for type "${eventType}"`;
    case kinds.StringMinLength:
      return 'must be a non-empty string';
    case kinds.StringMaxLength:
      return schema.maxLength === MAX_ID_LENGTH ? ID_TOO_LONG : `is longer than ${String(schema.maxLength)} characters (UTF-16 code units), the most this text may have`;
    case kinds.String:
      return 'must be a string';
    case kinds.Number:
      return 'must be a number';
    case kinds.Integer:
      return 'must be an integer';
    case kinds.Array:
      return 'must be an array';
    case kinds.ArrayMinItems:
      return `must have at least ${String(schema.minItems)} items`;
    case kinds.NumberMaximum:
    case kinds.IntegerMaximum:
      return `must be ≤ ${String(schema.maximum)}`;
    case kinds.NumberMinimum:
    case kinds.IntegerMinimum:
      return `must be ≥ ${String(schema.minimum)}`;
    case kinds.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case kinds.Union: {
      const options = (schema.anyOf as { const?: unknown }[] | undefined)?.map((option) => option.const);
      return options !== undefined && options.every((o) => typeof o === 'string') ? `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}` : 'is invalid';
    }
    default:
      return 'is invalid';
  }
}

/**
 * The bench's figures as data: what each measures, its value and unit, the baseline measured in
 * the same run and the figure's ratio to it, and the target with whether it is met. The console
 * summary, the JSON document (`npm run bench -- --json FILE`) and the table in
 * docs/benchmarks.md (`npm run bench:docs -- FILE`) are all drawn from these, formatted here.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { rate, seconds } from './format.js';

/** Units the bench reports in; each has one way of being written. */
const UNITS = ['actions/s', 'events/s', 'lines/s', 's', 'ms', 'µs', 'ns', 'B', 'KiB', 'GB', '×'] as const;
export type Unit = (typeof UNITS)[number];

const UnitSchema = Type.Union(UNITS.map((u) => Type.Literal(u)));

const BaselineSchema = Type.Object(
  {
    /** What the baseline is: a floor written for the bench, or another library. */
    name: Type.String({ minLength: 1 }),
    value: Type.Number(),
    unit: UnitSchema,
  },
  { additionalProperties: false },
);

const RatioSchema = Type.Object(
  {
    value: Type.Number(),
    /** How to read it, after the number: `× the baseline's time`, `× faster`. */
    unit: Type.String({ minLength: 1, pattern: '^×' }),
  },
  { additionalProperties: false },
);

const TargetSchema = Type.Object(
  {
    op: Type.Union([Type.Literal('>='), Type.Literal('<='), Type.Literal('<')]),
    value: Type.Number(),
    /** The unit of what the target bounds: the figure's own unit, or the ratio's. */
    unit: Type.String({ minLength: 1 }),
    /** Whether the target bounds the figure's value or its ratio to the baseline. */
    of: Type.Union([Type.Literal('value'), Type.Literal('ratio')]),
  },
  { additionalProperties: false },
);

export const FigureSchema = Type.Object(
  {
    /** Stable across runs: `cqr.inprocess.default`, `service.ingest.sqlite`, … */
    id: Type.String({ minLength: 1, pattern: '^[a-z0-9][a-z0-9.-]*$' }),
    /** The bench part (1–8 as in docs/benchmarks.md, 9 for `npm run bench:scale`). */
    part: Type.Integer({ minimum: 1, maximum: 9 }),
    what: Type.String({ minLength: 1 }),
    /** NaN (when noise swamped a difference) is written as null. */
    value: Type.Union([Type.Number(), Type.Null()]),
    unit: UnitSchema,
    baseline: Type.Optional(BaselineSchema),
    ratio: Type.Optional(RatioSchema),
    target: Type.Optional(TargetSchema),
    met: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const BenchDocumentSchema = Type.Object(
  {
    /** The format of this document; a reader refuses any other. */
    format: Type.Literal('standing-bench/1'),
    /** Which npm script wrote it: the whole bench, or one of its parts. */
    command: Type.Union([Type.Literal('bench'), Type.Literal('bench:service'), Type.Literal('bench:reads'), Type.Literal('bench:communities'), Type.Literal('bench:cluster'), Type.Literal('bench:scale')]),
    /** When the run ended, ISO-8601 in UTC. */
    date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' }),
    machine: Type.Object(
      {
        cpu: Type.String(),
        cores: Type.Integer({ minimum: 1 }),
        memoryGiB: Type.Number({ minimum: 0 }),
        node: Type.String(),
        platform: Type.String(),
      },
      { additionalProperties: false },
    ),
    figures: Type.Array(FigureSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type Figure = Omit<Static<typeof FigureSchema>, 'value'> & { readonly value: number };
export type BenchDocument = Static<typeof BenchDocumentSchema>;

/** A figure's baseline and its ratio to it: the figure's time (or value) over the baseline's. */
export function against(name: string, value: number, unit: Unit, ratio: number, reading = "× the baseline's time"): Pick<Figure, 'baseline' | 'ratio'> {
  return { baseline: { name, value, unit }, ratio: { value: ratio, unit: reading } };
}

/** A target on the figure's value. */
export function atLeast(value: number, unit: Unit, met: boolean): Pick<Figure, 'target' | 'met'> {
  return { target: { op: '>=', value, unit, of: 'value' }, met };
}

export function atMost(value: number, unit: Unit, met: boolean, op: '<=' | '<' = '<='): Pick<Figure, 'target' | 'met'> {
  return { target: { op, value, unit, of: 'value' }, met };
}

/** A target on the figure's ratio to its baseline. */
export function ratioTarget(op: '>=' | '<=', value: number, unit: string, met: boolean): Pick<Figure, 'target' | 'met'> {
  return { target: { op, value, unit, of: 'ratio' }, met };
}

/** `11.66 M actions/s`, `1.18 s`, `3.0 ms`, `16.7 µs`, `248.9 B`, `5.12 GB`, `1.34×`; `—` for a missing value. */
export function formatValue(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return '—';
  switch (unit) {
    case 'actions/s':
    case 'events/s':
    case 'lines/s':
      return rate(value, unit.slice(0, -2));
    case 's':
      return seconds(value);
    case 'ms':
      return `${value.toFixed(1)} ms`;
    case 'µs':
      return `${value.toFixed(1)} µs`;
    case 'ns':
      return `${value.toFixed(2)} ns`;
    case 'B':
      return `${value.toFixed(1)} B`;
    case 'KiB':
      return `${value.toFixed(2)} KiB`;
    case 'GB':
      return `${value.toFixed(2)} GB`;
    case '×':
      return `${formatRatio(value)}×`;
    default:
      return `${value} ${unit}`;
  }
}

/** Two decimals below 10, one above: `1.84`, `27.3`. */
function formatRatio(value: number): string {
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

/** `1.84× the baseline's time`, `27.3× faster`. */
export function formatRatioText(ratio: { readonly value: number; readonly unit: string }): string {
  return Number.isFinite(ratio.value) ? `${formatRatio(ratio.value)}${ratio.unit}` : '—';
}

const OP = { '>=': '≥', '<=': '≤', '<': '<' } as const;

/** `≥ 10.00 M actions/s`, `≤ 1.50× the baseline's time`; `—` without a target. */
export function formatTarget(figure: Pick<Figure, 'target'>): string {
  const t = figure.target;
  if (t === undefined) return '—';
  return `${OP[t.op]} ${t.of === 'ratio' ? formatRatioText({ value: t.value, unit: t.unit }) : formatValue(t.value, t.unit)}`;
}

/** `Map.get + add: 21.46 M actions/s`; `—` without a baseline. */
export function formatBaseline(figure: Pick<Figure, 'baseline'>): string {
  const b = figure.baseline;
  return b === undefined ? '—' : `${b.name}: ${formatValue(b.value, b.unit)}`;
}

/** `yes`, `NO`, or `—` for a figure only reported. */
export function formatMet(figure: Pick<Figure, 'target' | 'met'>): string {
  return figure.target === undefined ? '—' : figure.met === true ? 'yes' : 'NO';
}

/** A figure as JSON allows it (NaN becomes null). */
function toJson(figure: Figure): Static<typeof FigureSchema> {
  return { ...figure, value: Number.isFinite(figure.value) ? figure.value : null };
}

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
}

export function benchDocument(command: BenchDocument['command'], machine: Machine, figures: readonly Figure[], date = new Date()): BenchDocument {
  return { format: 'standing-bench/1', command, date: date.toISOString(), machine: { ...machine }, figures: figures.map(toJson) };
}

/** Thrown when a bench document does not have the form above: names the path and the reason. */
export class BenchDocumentError extends Error {
  override readonly name = 'BenchDocumentError';
}

/** Parses and checks a bench document; the error names the source, the path and the reason. */
export function parseBenchDocument(text: string, source: string): BenchDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BenchDocumentError(`${source}: is not JSON (${(error as Error).message})`);
  }
  const error = Value.Errors(BenchDocumentSchema, value).First();
  if (error !== undefined) {
    const path = error.path === '' ? '(document)' : error.path;
    throw new BenchDocumentError(`${source}: ${path} ${error.message.toLowerCase()}${error.value === undefined ? '' : `, got ${JSON.stringify(error.value)}`}`);
  }
  const document = value as BenchDocument;
  const ids = new Set<string>();
  document.figures.forEach((figure, i) => {
    if (ids.has(figure.id)) throw new BenchDocumentError(`${source}: /figures/${i}/id "${figure.id}" appears twice`);
    ids.add(figure.id);
    if (figure.met !== undefined && figure.target === undefined) throw new BenchDocumentError(`${source}: /figures/${i}/met is given without a target`);
    if (figure.target?.of === 'ratio' && figure.ratio === undefined) throw new BenchDocumentError(`${source}: /figures/${i}/target bounds the ratio, but the figure has none`);
  });
  return document;
}

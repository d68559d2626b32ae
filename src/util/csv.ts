/**
 * CSV as standing writes and reads it, on csv-stringify and csv-parse.
 *
 * Writing (every CSV standing emits: `rank`, `evaluate` and `tune --format csv`, the audit
 * export): RFC 4180, CRLF after every line, the last included; a cell is quoted when it holds a
 * quote, a comma or a line break, its quotes doubled. A text cell that starts with =, +, -, @, a
 * tab or a carriage return gets a leading apostrophe, so a spreadsheet shows it as text and never
 * runs it as a formula (OWASP's CSV injection advice); a number is written as it is, so -20 stays
 * a number.
 *
 * Reading (labels files, signed edge lists): quoted fields (with commas, doubled quotes, line
 * breaks), cells trimmed, a byte-order mark dropped, LF, CRLF or CR line ends (mixed too), blank
 * lines skipped, rows of any length (the caller checks it). Each row comes with the line it ends
 * on; text that is not CSV (a quote never closed) is the caller's error at the line reading stopped.
 */
import { parse as parseText } from 'csv-parse/sync';
import { CsvError, parse, type Options as ParseOptions } from 'csv-parse';
import { stringify, type Options as StringifyOptions } from 'csv-stringify/sync';
import { pipeline, type Readable } from 'node:stream';

const FORMULA_START = /^[=+\-@\t\r]/;

const WRITING: StringifyOptions = { record_delimiter: '\r\n', quote_record_delimiter: true };

/** The text of one cell, before quoting: a number as it is, anything else guarded against formulas. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One CSV line, CRLF included. */
export function csvLine(cells: readonly unknown[]): string {
  return stringify([cells.map(cellText)], WRITING);
}

/** A header line, then one line per row. */
export function renderCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return stringify([header, ...rows].map((row) => row.map(cellText)), WRITING);
}

/** One row read: its cells, trimmed, and the (1-based) line it ends on. */
export interface CsvRow {
  readonly cells: readonly string[];
  readonly line: number;
}

export interface CsvReadOptions {
  /** Lines whose first non-blank character is `#` are comments (skipped). */
  readonly comments?: boolean;
  /** The error to throw for text that is not CSV (an unclosed quote) at `line`. */
  readonly invalid: (line: number, reason: string) => Error;
}

const readingOptions = (options: CsvReadOptions): ParseOptions => ({
  bom: true,
  record_delimiter: ['\r\n', '\n', '\r'], // each line its own: a file may mix them
  trim: true,
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  raw: true, // lines are counted from it: cheaper than csv-parse's `info`, and right for a quoted CRLF
  ...(options.comments === true ? { comment: '#', comment_no_infix: true } : {}),
});

interface ParsedRecord {
  readonly record: string[];
  /** The record's text, with the blank and comment lines skipped before it and its line end. */
  readonly raw: string;
}

const LINE_END = /\r\n|\r|\n/g;

/** Numbers the records' lines: each call takes the next record and answers the line it ends on. */
function lineCounter(): (raw: string) => number {
  let ended = 0; // line ends read so far
  return (raw) => {
    const ends = raw.match(LINE_END)?.length ?? 0;
    const last = raw.charCodeAt(raw.length - 1);
    const line = ended + ends + (last === 10 || last === 13 ? 0 : 1);
    ended += ends;
    return line;
  };
}

/** A blank line that held spaces: one empty cell once trimmed. */
const isBlank = (record: readonly string[]): boolean => record.length === 1 && record[0] === '';

/** The rows of `records`, blank ones left out, each with its line. */
function rowsOf(records: readonly ParsedRecord[], lineOf: (raw: string) => number): CsvRow[] {
  const rows: CsvRow[] = [];
  for (const { record, raw } of records) {
    const line = lineOf(raw);
    if (!isBlank(record)) rows.push({ cells: record, line });
  }
  return rows;
}

function invalidCsv(error: CsvError, options: CsvReadOptions): Error {
  const line = (error as CsvError & { lines?: number }).lines ?? 0;
  return options.invalid(line, `is not valid CSV: ${error.message}`);
}

/** The rows of a whole CSV text. */
export function parseCsv(text: string, options: CsvReadOptions): CsvRow[] {
  let records: ParsedRecord[];
  try {
    records = parseText(text, readingOptions(options)) as unknown as ParsedRecord[];
  } catch (error) {
    throw error instanceof CsvError ? invalidCsv(error, options) : error;
  }
  return rowsOf(records, lineCounter());
}

const BATCH_ROWS = 4096;

/**
 * The rows of a CSV stream, in batches. A failure to read the stream is thrown as it came;
 * text that is not CSV as `options.invalid`.
 */
export async function* readCsv(stream: Readable, options: CsvReadOptions): AsyncGenerator<CsvRow[]> {
  const parser = parse(readingOptions(options));
  pipeline(stream, parser, () => {
    // a failure reaches the reading loop below through the parser
  });
  const lineOf = lineCounter();
  let batch: CsvRow[] = [];
  try {
    for await (const { record, raw } of parser as AsyncIterable<ParsedRecord>) {
      const line = lineOf(raw);
      if (isBlank(record)) continue;
      batch.push({ cells: record, line });
      if (batch.length === BATCH_ROWS) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    throw error instanceof CsvError ? invalidCsv(error, options) : error;
  }
  if (batch.length > 0) yield batch;
}

/** The one CSV module (src/util/csv.ts): what every export writes, and how the labels and signed-CSV readers read. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvLine, parseCsv, readCsv, renderCsv } from '../../src/util/csv.js';
import { collectBatches } from '../support/collect.js';

const invalid = (line: number, reason: string) => new Error(`line ${line}: ${reason}`);

describe('issue 26: writing CSV', () => {
  it('ends every line with CRLF, the last included, and writes a header line first', () => {
    expect(renderCsv(['a', 'b'], [[1, 'x'], [2, 'y']])).toBe('a,b\r\n1,x\r\n2,y\r\n');
    expect(renderCsv(['a'], [])).toBe('a\r\n');
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
  });

  it('quotes a cell holding a quote, a comma or a line break, doubling its quotes, and no other', () => {
    expect(csvLine(['say "hi"', 'a,b', 'two\nlines', 'cr\rhere', 'crlf\r\nhere', ' spaced ', 'tab\tinside', ''])).toBe(
      '"say ""hi""","a,b","two\nlines","cr\rhere","crlf\r\nhere", spaced ,tab\tinside,\r\n',
    );
  });

  it('guards text starting with =, +, -, @, a tab or a carriage return with a leading apostrophe', () => {
    expect(csvLine(['=1+1', '+1', '-1 for language', '@here', '\tx', '\rx'])).toBe("'=1+1,'+1,'-1 for language,'@here,'\tx,\"'\rx\"\r\n");
    expect(csvLine(['=HYPERLINK("http://evil","click")'])).toBe(`"'=HYPERLINK(""http://evil"",""click"")"\r\n`);
    expect(csvLine(['a=b', 'x-1', '#1', "'quoted"])).toBe("a=b,x-1,#1,'quoted\r\n");
  });

  it('writes numbers as they are: a negative number is no formula', () => {
    expect(csvLine([-20, 1.5, 0, -0.25, Infinity, -Infinity, NaN, 10n])).toBe('-20,1.5,0,-0.25,Infinity,-Infinity,NaN,10\r\n');
    expect(csvLine(['-20'])).toBe("'-20\r\n"); // text that looks like a number is still text
  });

  it('writes null and undefined as empty cells, anything else as its text', () => {
    expect(csvLine([null, undefined, true, 'x'])).toBe(',,true,x\r\n');
  });
});

describe('issue 26: reading CSV', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, naming the line each row ends on', () => {
    const text = 'player,class\n"a,b",F\n"say ""hi""",D\n"two\nlines",f\nlast,d';
    expect(parseCsv(text, { invalid })).toEqual([
      { cells: ['player', 'class'], line: 1 },
      { cells: ['a,b', 'F'], line: 2 },
      { cells: ['say "hi"', 'D'], line: 3 },
      { cells: ['two\nlines', 'f'], line: 5 },
      { cells: ['last', 'd'], line: 6 },
    ]);
    expect(parseCsv('x,"two\r\nlines"\r\n# skipped\r\ny\r\n', { invalid, comments: true })).toEqual([
      { cells: ['x', 'two\r\nlines'], line: 2 },
      { cells: ['y'], line: 4 },
    ]);
  });

  it('trims cells, drops a byte-order mark, takes CRLF, LF and CR even mixed, skips blank lines and keeps rows of any length', () => {
    expect(parseCsv('\uFEFF a , b \r\n\r\n   \r\nc\r\nd,e,f\r\n', { invalid })).toEqual([
      { cells: ['a', 'b'], line: 1 },
      { cells: ['c'], line: 4 },
      { cells: ['d', 'e', 'f'], line: 5 },
    ]);
    expect(parseCsv('a\nb\r\n\nc\rd', { invalid })).toEqual([
      { cells: ['a'], line: 1 },
      { cells: ['b'], line: 2 },
      { cells: ['c'], line: 4 },
      { cells: ['d'], line: 5 },
    ]);
  });

  it('keeps a stray quote inside a cell as it is', () => {
    expect(parseCsv('x"y,F\n', { invalid })).toEqual([{ cells: ['x"y', 'F'], line: 1 }]);
  });

  it('skips # comment lines when asked, and only lines that start with #', () => {
    const text = '# note\n  # indented note\na#1,F\n';
    expect(parseCsv(text, { invalid, comments: true })).toEqual([{ cells: ['a#1', 'F'], line: 3 }]);
    expect(parseCsv(text, { invalid }).map((row) => row.cells[0])).toEqual(['# note', '# indented note', 'a#1']);
  });

  it('names the line of text that is not CSV through the caller’s error', () => {
    expect(() => parseCsv('a,b\nc,"d\ne,f\n', { invalid })).toThrow(/^line 3: is not valid CSV: Quote Not Closed/);
  });

  it('reads a stream in batches with the same rows, and passes a failure to read it through', async () => {
    const text = 'from,to\n1,"2"\r\n\n3,4\n';
    expect(await collectBatches(readCsv(Readable.from([text.slice(0, 9), text.slice(9)]), { invalid }))).toEqual([
      { cells: ['from', 'to'], line: 1 },
      { cells: ['1', '2'], line: 2 },
      { cells: ['3', '4'], line: 4 },
    ]);
    await expect(collectBatches(readCsv(Readable.from(['x\na,"b\n']), { invalid }))).rejects.toThrow(/^line 2: is not valid CSV/);
    const broken = new Readable({ read() { this.destroy(Object.assign(new Error('gone'), { code: 'EIO' })); } });
    await expect(collectBatches(readCsv(broken, { invalid }))).rejects.toThrow(/^gone$/);
  });

  it('reads back what it writes', () => {
    const rows = [['a,b', 'say "hi"', 'two\r\nlines'], ['x', '', 'y']];
    expect(parseCsv(renderCsv(['one', 'two', 'three'], rows), { invalid }).map((row) => row.cells)).toEqual([['one', 'two', 'three'], ...rows]);
  });
});

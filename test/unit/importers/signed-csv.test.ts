/** The signed-CSV importer (Bitcoin OTC/Alpha, Wikipedia votes) on small inline inputs. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EventValidationError } from '../../../src/index.js';
import { openEventSource } from '../../../src/events/ndjson.js';
import { importSignedCsv } from '../../../src/importers/signed-csv.js';
import { collectBatches } from '../../support/collect.js';

const source = (text: string) => ({ name: 'input.csv', stream: Readable.from([text]) });

describe('signed CSV', () => {
  it('reads SNAP Bitcoin rows: value / 10, unix seconds, header skipped', async () => {
    const events = await collectBatches(importSignedCsv(source('from,to,feature,time\n6,2,4,1289241911.72836\n7,2,-10,1289241941\n'), { scale: 10, idPrefix: 'b' }));
    expect(events).toEqual([
      { type: 'rating', id: 'b-2', time: 1289241911728, community: 'default', from: 'u6', to: 'u2', value: 0.4 },
      { type: 'rating', id: 'b-3', time: 1289241941000, community: 'default', from: 'u7', to: 'u2', value: -1 },
    ]);
  });

  it('reads votes without time, with a BOM and CRLF, keeping the order', async () => {
    const events = await collectBatches(importSignedCsv(source('\uFEFF0,1,1\r\n0,5,-1'), { scale: 1, idPrefix: 'w', start: 1000 }));
    expect(events.map((e) => [e.from, e.to, e.value, e.time])).toEqual([
      ['u0', 'u1', 1, 1000],
      ['u0', 'u5', -1, 1001],
    ]);
  });

  it('names bad rows', async () => {
    await expect(collectBatches(importSignedCsv(source('1,2,11\n'), { scale: 10, idPrefix: 'b' }))).rejects.toThrow(/input\.csv line 1: field "value" 11 \/ 10 is outside \[−1, 1\]/);
    await expect(collectBatches(importSignedCsv(source('1,1,1\n'), { scale: 1, idPrefix: 'b' }))).rejects.toThrow(EventValidationError);
    await expect(collectBatches(importSignedCsv(source('1,2\n'), { scale: 1, idPrefix: 'b' }))).rejects.toThrow(/expected "from,to,value\[,time\]"/);
  });

  it('issue 26: reads quoted cells, and names the line of text that is not CSV', async () => {
    const events = await collectBatches(importSignedCsv(source('"from","to","value"\n"1","2","-1"\n3,"4", 1 \n'), { scale: 1, idPrefix: 'w', start: 0 }));
    expect(events.map((e) => [e.id, e.from, e.to, e.value])).toEqual([
      ['w-2', 'u1', 'u2', -1],
      ['w-3', 'u3', 'u4', 1],
    ]);
    const broken = () => collectBatches(importSignedCsv(source('1,2,1\n3,"4,1\n'), { scale: 1, idPrefix: 'w' }));
    await expect(broken()).rejects.toThrow(EventValidationError);
    await expect(broken()).rejects.toThrow(/^input\.csv line 2: field \(event\) is not valid CSV: Quote Not Closed/);
  });

  it('issue 26: names a file it cannot read', async () => {
    await expect(collectBatches(importSignedCsv(openEventSource('/nonexistent/ratings.csv'), { scale: 1, idPrefix: 'w' }))).rejects.toThrow(/^\/nonexistent\/ratings\.csv: no such file$/);
  });
});

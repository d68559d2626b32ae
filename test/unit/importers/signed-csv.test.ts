/** The signed-CSV importer (Bitcoin OTC/Alpha, Wikipedia votes) on small inline inputs. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EventValidationError } from '../../../src/index.js';
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
});

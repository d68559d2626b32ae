/** The data importers on small inline inputs (the real data sets run in the data tier). */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EventValidationError, type ChatEvent } from '../../../src/index.js';
import { importCollegeMsg } from '../../../src/importers/college-msg.js';
import { importConda } from '../../../src/importers/conda.js';
import { collectBatches } from '../../support/collect.js';


const source = (text: string) => ({ name: 'input', stream: Readable.from([text]) });

describe('college-msg', () => {
  it('turns "SRC DST UNIXTS" into chat events', async () => {
    const events = await collectBatches(importCollegeMsg(source('1 2 1082040961\n\n3 4 1082155839\n')));
    expect(events).toEqual([
      { type: 'chat', id: 'collegemsg-1', time: 1082040961000, community: 'default', from: 'u1', to: ['u2'] },
      { type: 'chat', id: 'collegemsg-3', time: 1082155839000, community: 'default', from: 'u3', to: ['u4'] },
    ]);
  });

  it('names a malformed line', async () => {
    await expect(collectBatches(importCollegeMsg(source('1 2 1082040961\n1 two 5\n')))).rejects.toThrow(EventValidationError);
    await expect(collectBatches(importCollegeMsg(source('1 2 1082040961\n1 2 soon\n')))).rejects.toThrow(/input line 2: field "UNIXTS"/);
  });
});

describe('conda', () => {
  const csv = [
    'Id,matchId,conversationId,utterance,chatTime,playerSlot,playerId,intentClass,slotClasses,slotTokens',
    '7,1,1,"gg, wp",30,0,ann,O,O ,"gg (O), "',
    '5,1,1,hi,-60,5,bob,O,O ,"hi (O), "',
    '9,1,1,lol,30,7,,O,O ,"lol (O), "',
    '3,2,2,alone,10,0,#NAME?,O,O ,"alone (O), "',
  ].join('\n');

  it('sends each utterance to the others who chatted in its match, in chat-time order', async () => {
    const events = (await collectBatches(importConda(Readable.from([csv]), 'conda.csv'))) as ChatEvent[];
    expect(events.map((e) => [e.id, e.from, e.to, e.text])).toEqual([
      ['conda-5', 'bob', ['ann', 'dota2-1-slot7'], 'hi'],
      ['conda-7', 'ann', ['bob', 'dota2-1-slot7'], 'gg, wp'],
      ['conda-9', 'dota2-1-slot7', ['bob', 'ann'], 'lol'],
    ]);
    // match 1 is laid out at 2021-01-01 + 2 h, plus 600 s, plus chatTime
    expect(events[0]!.time).toBe(Date.UTC(2021, 0, 1, 2) + 600_000 - 60_000);
    expect(events[0]).toMatchObject({ match: 'dota2-1', intent: 'O' });
  });

  it('names a missing column and a bad cell', async () => {
    await expect(collectBatches(importConda(Readable.from(['Id,matchId\n1,2\n']), 'x.csv'))).rejects.toThrow(/x\.csv line 2: field "utterance" is a missing column/);
    const bad = csv.replace('7,1,1,"gg, wp",30', '7,1,1,"gg, wp",soon');
    await expect(collectBatches(importConda(Readable.from([bad]), 'x.csv'))).rejects.toThrow(/field "chatTime" must be an integer, got "soon"/);
  });
});

/**
 * The shared real data sets `simulate attacks --data DIR` reads, by their place in DIR (the
 * layout of the project's data folder), each through its importer; those missing are skipped.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatEvent, RatingEvent } from '../../events/types.js';
import { openEventSource } from '../../events/ndjson.js';
import { importCollegeMsg } from '../../importers/college-msg.js';
import { importConda } from '../../importers/conda.js';
import { importSignedCsv } from '../../importers/signed-csv.js';
import { chatAgreement, trustAgreement, type RealDataRow } from '../../simulations/attacks/real-data.js';

async function collect<E>(batches: AsyncIterable<readonly E[]>): Promise<E[]> {
  const out: E[] = [];
  for await (const batch of batches) out.push(...batch);
  return out;
}

interface DataSet {
  readonly name: string;
  readonly path: string;
  read(file: string): Promise<RealDataRow>;
}

const signed = (scale: number) => (file: string) => collect<RatingEvent>(importSignedCsv(openEventSource(file), { scale, idPrefix: 'signed' }));

export const REAL_DATA_SETS: readonly DataSet[] = [
  { name: 'Bitcoin OTC', path: 'bitcoin-otc/soc-sign-bitcoinotc.csv', read: async (file) => trustAgreement('Bitcoin OTC', await signed(10)(file)) },
  { name: 'Bitcoin Alpha', path: 'bitcoin-alpha/soc-sign-bitcoinalpha.csv', read: async (file) => trustAgreement('Bitcoin Alpha', await signed(10)(file)) },
  { name: 'Wikipedia elections', path: 'wiki-elections-signed/wikielections.csv', read: async (file) => trustAgreement('Wikipedia elections', await signed(1)(file)) },
  { name: 'CollegeMsg', path: 'college-msg/CollegeMsg.txt', read: async (file) => chatAgreement('CollegeMsg', await collect<ChatEvent>(importCollegeMsg(openEventSource(file)))) },
  { name: 'CONDA Dota 2 chat (train)', path: 'conda-dota2-chat/CONDA_train.csv', read: async (file) => chatAgreement('CONDA Dota 2 chat (train)', await collect<ChatEvent>(importConda(createReadStream(file), file))) },
];

/** The agreement rows of every data set present under `dir`. */
export async function realDataAgreement(dir: string): Promise<RealDataRow[]> {
  const rows: RealDataRow[] = [];
  for (const set of REAL_DATA_SETS) {
    const file = join(dir, set.path);
    if (existsSync(file)) rows.push(await set.read(file));
  }
  return rows;
}

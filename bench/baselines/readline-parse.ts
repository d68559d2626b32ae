/**
 * Baseline reader (a): node:readline over fs.createReadStream, JSON.parse of each non-empty
 * line, nothing else. Prints the number of lines parsed. Usage: node readline-parse.js FILE
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: readline-parse FILE');

let lines = 0;
const reader = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
for await (const line of reader) {
  if (line.length === 0) continue;
  JSON.parse(line);
  lines++;
}
process.stdout.write(`${lines}\n`);

/**
 * Baseline reader (b), what a careful hand-written reader does: createReadStream with 1 MiB
 * chunks decoded as UTF-8, each chunk split on '\n' (the partial last line carried over), and
 * JSON.parse of each non-empty line. Prints the number of lines parsed. Usage: node split-parse.js FILE
 */
import { createReadStream } from 'node:fs';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: split-parse FILE');

let lines = 0;
let carry = '';
const stream = createReadStream(file, { highWaterMark: 1 << 20 });
stream.setEncoding('utf8');
for await (const chunk of stream as AsyncIterable<string>) {
  const parts = (carry + chunk).split('\n');
  carry = parts.pop()!;
  for (let i = 0; i < parts.length; i++) {
    const line = parts[i]!;
    if (line.length === 0) continue;
    JSON.parse(line);
    lines++;
  }
}
if (carry.length > 0) {
  JSON.parse(carry);
  lines++;
}
process.stdout.write(`${lines}\n`);

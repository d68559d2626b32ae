/**
 * `npm run bench:cli`: only the CLI end to end, part 3 (cqr, both files) and part 4 (reliability,
 * chat and the chat simulation), with their summary. Prints; writes no JSON document (the docs
 * table is drawn from whole runs and from the parts that have a command of their own).
 */
import { END_TO_END_STREAMS, runEndToEnd } from './cqr-end-to-end.js';
import { heading } from './format.js';
import type { Figure } from './figures.js';
import { runReliabilityAndChat } from './reliability-and-chat.js';
import { renderSummary } from './summary.js';

const figures: Figure[] = [];
for (const stream of END_TO_END_STREAMS) {
  const part = await runEndToEnd(stream);
  console.log(part.text);
  figures.push(...part.figures);
}
const scorers = await runReliabilityAndChat();
console.log(scorers.text);
figures.push(...scorers.figures);
console.log(heading('Summary'));
console.log(renderSummary(figures));

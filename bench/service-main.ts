/** `npm run bench:service`: only part 6 (the service over HTTP) and the heavy reads, with their summary. */
import { runHeavyReads } from './heavy-reads.js';
import { runService } from './service.js';
import { heading } from './format.js';
import { renderSummary } from './summary.js';

const part = await runService();
console.log(part.text);
const reads = await runHeavyReads();
console.log(reads.text);
console.log(heading('Summary'));
console.log(renderSummary([...part.figures, ...reads.figures]));

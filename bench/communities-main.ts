/** `npm run bench:communities`: only part 7 (many small communities), with its summary. */
import { runCommunities } from './communities.js';
import { heading } from './format.js';
import { renderSummary } from './summary.js';

const part = await runCommunities();
console.log(part.text);
console.log(heading('Summary'));
console.log(renderSummary(part.figures));

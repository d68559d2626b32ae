/** `npm run bench:service`: only part 6 (the service over HTTP), with its summary. */
import { runService } from './service.js';
import { heading } from './format.js';
import { renderSummary } from './summary.js';

const part = await runService();
console.log(part.text);
console.log(heading('Summary'));
console.log(renderSummary(part.figures));

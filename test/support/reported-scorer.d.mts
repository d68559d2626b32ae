/** The type of reported-scorer.mjs, a scorer module written in plain JavaScript. */
import type { ScorerModule } from '../../src/index.js';

export declare const scorerModule: ScorerModule;

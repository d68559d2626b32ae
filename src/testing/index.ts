/**
 * `standing/testing`: checks for people who write a scorer of their own, with no test framework
 * in them (feed them from any property tester; standing's own tests use fast-check).
 */
export { restoresExactly, scorerView } from './restores-exactly.js';

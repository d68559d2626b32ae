/**
 * Preloaded by `node --import` (through NODE_OPTIONS): the process then cannot resolve
 * @resvg/resvg-js, as in an install without optional dependencies (`npm install --omit=optional`).
 */
import { register } from 'node:module';

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === '@resvg/resvg-js') throw Object.assign(new Error("Cannot find package '@resvg/resvg-js'"), { code: 'ERR_MODULE_NOT_FOUND' });
  return next(specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);

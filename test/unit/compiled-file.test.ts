/** compiledFile: a file as it is when it exists, else its twin under dist/ instead of src/. */
import { describe, expect, it } from 'vitest';
import { compiledFile } from '../../src/util/compiled-file.js';

describe('compiledFile', () => {
  it('keeps a file that exists', () => {
    const here = new URL(import.meta.url);
    expect(compiledFile(here).href).toBe(here.href);
  });

  it('takes the dist/ twin of a missing file under src/ (the last src/ in the path)', () => {
    const script = new URL('file:///srv/src/app/src/scorers/trust/worker.js');
    expect(compiledFile(script).href).toBe('file:///srv/src/app/dist/scorers/trust/worker.js');
  });

  it('leaves a missing file outside any src/ alone', () => {
    const elsewhere = new URL('file:///srv/app/lib/worker.js');
    expect(compiledFile(elsewhere).href).toBe(elsewhere.href);
  });
});

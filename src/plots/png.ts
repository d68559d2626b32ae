/**
 * SVG → PNG with resvg (the `@resvg/resvg-js` package, whose prebuilt renderer ships in the npm
 * registry), using the system's fonts. It is an optional dependency: loaded on first use so other
 * commands never pay for it, and undefined where it cannot be loaded (not installed, as with
 * `npm install --omit=optional`, or no prebuilt renderer for the platform).
 */
export type PngRenderer = (svg: string) => Buffer;

/** The package that renders PNGs. */
export const PNG_PACKAGE = '@resvg/resvg-js';

/** The part of resvg's API used here (declared so the build does not need the optional package). */
interface ResvgModule {
  readonly Resvg: new (svg: string, options: object) => { render(): { asPng(): Buffer } };
}

const renderers = new Map<string, Promise<PngRenderer | undefined>>();

/** The PNG renderer of `specifier` (resvg unless told), or undefined when it cannot be loaded. */
export function pngRenderer(specifier: string = PNG_PACKAGE): Promise<PngRenderer | undefined> {
  let renderer = renderers.get(specifier);
  if (renderer === undefined) {
    renderer = (import(specifier) as Promise<ResvgModule>).then(
      ({ Resvg }) =>
        (svg: string) =>
          new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, background: 'white' }).render().asPng(),
      () => undefined,
    );
    renderers.set(specifier, renderer);
  }
  return renderer;
}

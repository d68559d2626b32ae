/**
 * SVG → PNG with resvg (the `@resvg/resvg-js` package, whose prebuilt renderer ships in the npm
 * registry), using the system's fonts. Loaded on first use so other commands never pay for it;
 * undefined when the renderer cannot be loaded on this platform.
 */
type Renderer = (svg: string) => Buffer;

let renderer: Promise<Renderer | undefined> | undefined;

export function pngRenderer(): Promise<Renderer | undefined> {
  renderer ??= import('@resvg/resvg-js').then(
    ({ Resvg }) => (svg: string) =>
      new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, background: 'white' }).render().asPng(),
    () => undefined,
  );
  return renderer;
}
